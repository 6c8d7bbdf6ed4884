class web(Integer $port = 80, String $host = 'localhost') {
  notice("${host}:${port}")
}
class { 'web': port => 8080 }
