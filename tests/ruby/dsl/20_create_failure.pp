# A provider's create raises: that resource fails, its dependents are
# skipped, the others are applied.
mrtest_widget { '/tmp/mrtest-rbtypes/fail-create.widget': color => blue }
notify { 'after failure': require => Mrtest_widget['/tmp/mrtest-rbtypes/fail-create.widget'] }
mrtest_widget { '/tmp/mrtest-rbtypes/eight.widget': color => red }
