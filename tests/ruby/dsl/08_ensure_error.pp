# An ensure value the block does not declare.
mrtest_widget { '/tmp/mrtest-rbtypes/four.widget': ensure => broken }
