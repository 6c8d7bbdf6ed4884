# Two resources fail their pre-run check: both are reported and nothing
# is applied, not even the resources before them.
mrtest_widget { '/tmp/mrtest-rbtypes/seven.widget': color => blue }
mrtest_widget { '/tmp/mrtest-rbtypes/forbidden/a.widget': color => blue }
mrtest_widget { '/tmp/mrtest-rbtypes/forbidden/b.widget': color => red }
