class profile::vhosts {
  $sites = mrtestweb::normalize(['Shop.Example.com', 'blog.example.com'])
  mrtestweb::site { $sites: }
}
