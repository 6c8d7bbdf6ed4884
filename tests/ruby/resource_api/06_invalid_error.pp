# A value outside its type fails the resource.
mrtest_rakv { 'gamma': value => 'g', weight => 500 }
