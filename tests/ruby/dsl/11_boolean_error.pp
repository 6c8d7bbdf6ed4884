# A boolean parameter given something else.
mrtest_widget { '/tmp/mrtest-rbtypes/four.widget': force => 'maybe' }
