# A value the parameter's validate refuses before calling super.
mrtest_widget { '/tmp/mrtest-rbtypes/four.widget': color => green }
