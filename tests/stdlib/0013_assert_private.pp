include mrtest_private
mrtest_private::thing { 'outside': }
