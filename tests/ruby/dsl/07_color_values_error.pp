# A value neither named nor matching the pattern.
mrtest_widget { '/tmp/mrtest-rbtypes/four.widget': color => 'Blue!' }
