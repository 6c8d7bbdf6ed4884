class nginx (Integer $worker_connections, String $user, Variant[Integer, String] $worker_processes = 'auto') {
  notify { 'mrtest-nginx': message => "user=${user} worker_connections=${worker_connections} worker_processes=${worker_processes}" }
}
