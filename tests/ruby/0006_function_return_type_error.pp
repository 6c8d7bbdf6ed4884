notice(mrtest_rb::wrong('number'))
