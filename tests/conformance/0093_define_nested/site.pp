define mrtest_site::file (String $dir) {
  file { "${dir}/${title}": ensure => file }
}
define mrtest_site (Array[String] $files = []) {
  $dir = "/tmp/mrtest-site-${title}"
  file { $dir: ensure => directory }
  mrtest_site::file { $files: dir => $dir }
}
mrtest_site { 'blog': files => ['index.html', 'about.html'] }
mrtest_site { 'shop': }
