class mrtest_accounts {
  @user { 'mrtest-eve': ensure => present, shell => '/bin/bash' }
  @user { 'mrtest-frank': ensure => present, shell => '/bin/zsh' }
}
class mrtest_web {
  realize(User['mrtest-eve'])
}
include mrtest_accounts
include mrtest_web
