# A provider that is not suitable here.
mrtest_widget { '/tmp/mrtest-rbtypes/five.widget': provider => painter }
notify { 'after five': require => Mrtest_widget['/tmp/mrtest-rbtypes/five.widget'] }
