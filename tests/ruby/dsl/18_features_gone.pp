# The widget of the previous step removed, whatever it holds.
mrtest_widget { '/tmp/mrtest-rbtypes/six.widget': ensure => absent }
