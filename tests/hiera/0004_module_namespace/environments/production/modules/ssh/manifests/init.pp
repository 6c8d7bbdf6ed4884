class ssh (
  Integer $port,
  String $service_name,
  Hash $server_options,
) {
  notify { 'mrtest-ssh':
    message => "port=${port} service=${service_name} options=${server_options}",
  }
}
