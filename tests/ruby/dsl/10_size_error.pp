# A property value refused per element.
mrtest_widget { '/tmp/mrtest-rbtypes/four.widget': size => 'big' }
