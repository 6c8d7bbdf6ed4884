class apache (
  String $docroot = '/var/www',
  Integer[1, 65535] $port = 80,
  Optional[String] $user = undef,
  Boolean $ssl = false,
  $untyped,
) {
  notice($docroot)
}
