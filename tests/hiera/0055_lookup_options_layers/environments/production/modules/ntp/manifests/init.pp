class ntp (Array $servers, Array $restrict, Hash $config) {
  notify { 'mrtest-ntp': message => "servers=${servers} restrict=${restrict} config=${config}" }
}
