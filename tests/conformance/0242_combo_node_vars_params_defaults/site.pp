node 'mrtest.example.com' {
  $mrtest_dc = 'ams1'
  include profile::dc
}
class profile::dc (String $resolver = '192.0.2.53') {
  File { mode => '0644' }
  file { '/tmp/mrtest-resolv.conf':
    content => "# ${mrtest_dc}\nnameserver ${resolver}\n",
  }
  notify { 'mrtest-dc': message => "dc ${mrtest_dc} on ${trusted['certname']}" }
}
