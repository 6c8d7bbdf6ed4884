# An agent run from cron instead of the daemon, every two hours at times
# spread by IP, with extra [agent] settings and a postrun command.
class { 'puppet':
  server                    => false,
  agent_server_hostname     => 'puppet.example.com',
  ca_server                 => 'puppetca.example.com',
  runmode                   => 'cron',
  runinterval               => 7200,
  postrun_command           => '/usr/local/bin/mrtest-postrun',
  agent_additional_settings => {
    'stringify_facts' => false,
    'graph'           => true,
  },
  additional_settings       => {
    'disable_warnings' => 'deprecations',
  },
}
