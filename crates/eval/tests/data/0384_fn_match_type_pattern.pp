notice('abc'.match(Pattern[/b/]))
notice('abc'.match(Pattern[/x/, /(c)/]))
