package { 'mrtest-one':
  ensure   => latest,
  provider => mrtest_pkg,
}
package { 'mrtest-two':
  ensure   => absent,
  provider => mrtest_pkg,
}
package { 'mrtest-pinned':
  ensure   => '1.7',
  provider => mrtest_pkg,
}
service { 'mrtest-flag':
  ensure   => stopped,
  provider => mrtest_flag,
}
