$t = Pattern[/^a/, /b$/]
notice($t)
