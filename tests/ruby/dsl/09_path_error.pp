# A namevar its validate refuses.
mrtest_widget { 'four.widget': color => blue }
