class role::tagged {
  tag 'mrtest_role'
  include profile::tagweb
}
