package { ['mrtest-one', 'mrtest-new']:
  ensure   => latest,
  provider => mrtest_pkg,
}
package { 'mrtest-two':
  ensure   => purged,
  provider => mrtest_pkg,
}
