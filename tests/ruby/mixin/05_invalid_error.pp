# The mixin's values are checked.
mrtest_mixed { 'nosection': ensure => present, value => 'x' }
