class mrtest_metac { notify { 'mrtest-metac': } }
notify { 'mrtest-first-thing': }
class { 'mrtest_metac':
  require => Notify['mrtest-first-thing'],
  tag     => ['mrtest_extra'],
}
