# A second Redis instance beside the default one.
class { 'redis':
  default_install => false,
  manage_repo     => false,
}
redis::instance { 'app2':
  port => 6381,
}
