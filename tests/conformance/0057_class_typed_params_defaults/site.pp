class mrtest_app (
  String $user        = 'mrtest-app',
  Integer $port       = 8080,
  String $home        = "/tmp/mrtest-home/${user}",
  Boolean $enabled    = true,
  Array[String] $opts = ['-a', "--port=${port}"],
) {
  notify { 'mrtest-app-settings':
    message => "${user} ${home} ${port} ${enabled} ${opts}",
  }
}
include mrtest_app
