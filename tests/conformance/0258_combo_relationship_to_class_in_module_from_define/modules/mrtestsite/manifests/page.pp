define mrtestsite::page () {
  include mrtestsite
  file { "/tmp/mrtest-site-root/${title}.html":
    ensure  => file,
    require => Class['mrtestsite'],
  }
}
