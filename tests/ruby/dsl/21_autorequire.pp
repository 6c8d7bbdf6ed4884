# The widget's directory, declared after it, is made first.
mrtest_widget { '/tmp/mrtest-rbtypes/sub/nine.widget': color => blue }
file { '/tmp/mrtest-rbtypes/sub': ensure => directory }
