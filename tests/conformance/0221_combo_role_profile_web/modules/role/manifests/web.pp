class role::web {
  include profile::base
  include profile::nginx
  Class['profile::base'] -> Class['profile::nginx']
}
