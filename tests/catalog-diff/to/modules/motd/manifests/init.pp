# @summary Writes /etc/motd from a template.
#
# @param message The text shown first.
# @param role The node's role, named in the message.
class motd (
  String $message,
  String $role = 'base',
) {
  file { '/etc/motd':
    ensure  => file,
    owner   => 'root',
    group   => 'root',
    mode    => '0644',
    content => epp('motd/motd.epp', { 'message' => $message, 'role' => $role }),
  }
}
