$base = '/tmp/mrtest-vars'
$names = ['alpha', 'beta']
file { $base: ensure => directory }
$names.each |$n| {
  file { "${base}/${n}.conf":
    ensure  => file,
    content => "name=${n}\n",
  }
}
