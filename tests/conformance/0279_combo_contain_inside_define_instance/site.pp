class mrtest_agentpkg { package { 'mrtest-agent': } }
define mrtest_agentcfg () {
  contain mrtest_agentpkg
  file { "/tmp/mrtest-agent-${title}.cfg": ensure => file }
}
mrtest_agentcfg { 'main': }
notify { 'mrtest-agent-done': require => Mrtest_agentcfg['main'] }
