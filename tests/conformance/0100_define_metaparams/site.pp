define mrtest_meta () {
  notify { "mrtest-meta-inner-${title}": }
}
package { 'mrtest-meta-pkg': }
service { 'mrtest-meta-svc': }
mrtest_meta { 'one':
  require => Package['mrtest-meta-pkg'],
  before  => Service['mrtest-meta-svc'],
  tag     => ['mrtest_metatag'],
}
