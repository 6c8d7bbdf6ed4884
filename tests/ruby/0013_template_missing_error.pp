notice(template('mrtest_rb/nonexistent.erb'))
