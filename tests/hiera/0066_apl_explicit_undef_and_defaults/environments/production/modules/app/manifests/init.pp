class app (
  Integer $port = 80,
  String $user = 'www-data',
  Integer $workers = 1,
  String $log_level = 'warning',
  String $listen = 'unset',
  Optional[String] $nullable = 'class default',
  String $not_in_hiera = 'class default used',
) {
  notify { 'mrtest-app':
    message => "port=${port} user=${user} workers=${workers} log_level=${log_level} listen=${listen} nullable=${nullable} not_in_hiera=${not_in_hiera}",
  }
}
