# /etc/motd and /etc/issue from strings, without the dynamic motd scripts.
class { 'motd':
  content       => "This machine is managed by Puppet.\nUnauthorised access is prohibited.\n",
  issue_content => "Debian GNU/Linux \\n \\l\n",
  dynamic_motd  => false,
}
