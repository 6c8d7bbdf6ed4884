node /^mrtest-app(\d+)\.(\w+)\.example\.com$/ {
  class { 'profile::appnode':
    index => Integer($1),
    site  => $2,
  }
}
class profile::appnode (Integer $index, String $site) {
  $peer = $index % 2 ? { 0 => 'odd', default => 'even' }
  notify { 'mrtest-appnode': message => "${site}-${index} peers with ${peer}" }
  file { "/tmp/mrtest-${site}.id": content => String($index) }
}
