class mrtest (
  Array $packages,
  Array $admins,
  Hash $users,
  Hash $sshd,
  Variant[String, Array] $scalar,
) {
  notify { 'mrtest-packages': message => "${packages}" }
  notify { 'mrtest-admins': message => "${admins}" }
  notify { 'mrtest-users': message => "${users}" }
  notify { 'mrtest-sshd': message => "${sshd}" }
  notify { 'mrtest-scalar': message => "${scalar}" }
  notify { 'mrtest-lookup-overrides-options': message => "${lookup('mrtest::packages', Array, 'first')}" }
  notify { 'mrtest-lookup-hash-merge-param': message => "${lookup('mrtest::admins', Array, { 'strategy' => 'unique' })}" }
}
