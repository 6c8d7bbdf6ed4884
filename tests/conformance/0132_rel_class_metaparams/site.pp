class mrtest_repo { notify { 'mrtest-repo': } }
class mrtest_install { package { 'mrtest-install': } }
include mrtest_repo, mrtest_install
Class['mrtest_repo'] -> Package['mrtest-install']
package { 'mrtest-install-extra': require => Class['mrtest_repo'], before => Class['mrtest_install'] }
notify { 'mrtest-after-install': require => Class['mrtest_install'] }
