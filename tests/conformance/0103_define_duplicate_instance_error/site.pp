define mrtest_once () { }
mrtest_once { 'same': }
mrtest_once { 'same': }
