# HAProxy with a userlist and a mapfile.
include haproxy
haproxy::userlist { 'users':
  groups => ['admins users jdoe'],
  users  => ['jdoe insecure-password secret'],
}
haproxy::mapfile { 'domains-to-backends':
  ensure   => 'present',
  mappings => [
    { 'app01.example.com' => 'bk_app01' },
    { 'app02.example.com' => 'bk_app02' },
  ],
}
