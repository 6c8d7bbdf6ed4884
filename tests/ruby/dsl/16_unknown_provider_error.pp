# A provider that does not exist.
mrtest_widget { '/tmp/mrtest-rbtypes/five.widget': provider => nosuch }
