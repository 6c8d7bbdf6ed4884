# links => follow manages what a link points to; links => manage (the
# default) copies a source link as a link.
$follow = { links => follow }
file { '/tmp/mrtest-apply/to-mode': mode => '0640', * => $follow }
file { '/tmp/mrtest-apply/to-content':
  content => "replaced\n",
  mode    => '0644',
  *       => $follow,
}
file { '/tmp/mrtest-apply/to-remove': ensure => absent, * => $follow }
file { '/tmp/mrtest-apply/to-dir': ensure => directory, mode => '0700', * => $follow }
file { '/tmp/mrtest-apply/dangling': ensure => file, * => $follow }
file { '/tmp/mrtest-apply/copied-link': source => '/tmp/mrtest-apply/source-link' }
file { '/tmp/mrtest-apply/copied-file': source => '/tmp/mrtest-apply/source-link', * => $follow }
