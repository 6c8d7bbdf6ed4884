notice(template('mrtest_rb/broken.erb'))
