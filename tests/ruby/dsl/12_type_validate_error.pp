# The type's global validate refuses a big widget without force.
mrtest_widget { '/tmp/mrtest-rbtypes/four.widget': size => 12, force => 'no' }
