define mymod::vhost (
  String $docroot,
  Integer $port = 80,
) {
  notice($title, $name, $docroot, $port)
}
