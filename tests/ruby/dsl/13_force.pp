# With force (one of the many words a boolean parameter takes), allowed.
mrtest_widget { '/tmp/mrtest-rbtypes/four.widget': size => 12, force => 'yes' }
