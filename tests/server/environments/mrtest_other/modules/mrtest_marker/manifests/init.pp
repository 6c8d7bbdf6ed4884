# A class the server test's classifier declares with a parameter.
class mrtest_marker (String $word) {
  file { "${facts['mrtest_srv_dir']}/marker.txt":
    content => "${word}\n",
  }
}
