# motd from the module's own template (facts about the node), with
# /etc/issue.net from a string.
class { 'motd':
  issue_net_content => "Authorised users only.\n",
}
