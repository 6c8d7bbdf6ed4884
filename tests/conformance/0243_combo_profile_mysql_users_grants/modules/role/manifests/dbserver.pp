class role::dbserver {
  include profile::base
  class { 'profile::mysql':
    databases => ['mrtest_shop', 'mrtest_blog'],
  }
}
