# /etc/motd, built from fragments: this class's banner and notes, and what
# the other profiles add (order 20 and later).
class profile::base::motd (
  String[1]        $banner,
  Array[String[1]] $notes = [],
) {
  concat { '/etc/motd':
    owner => 'root',
    group => 'root',
    mode  => '0644',
  }
  concat::fragment { 'motd-banner':
    target  => '/etc/motd',
    content => epp('profile/motd_banner.epp', {
      'banner' => $banner,
      'role'   => $role,
      'notes'  => $notes,
    }),
    order   => '01',
  }
}
