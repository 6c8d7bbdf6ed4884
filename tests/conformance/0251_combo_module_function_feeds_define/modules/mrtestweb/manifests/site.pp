define mrtestweb::site () {
  $short = split($title, '\.')[0]
  file { "/tmp/mrtest-sites/${short}.conf": content => "server_name ${title};\n" }
}
