notice('abc123' =~ Pattern[/\d+/])
notice('abc' =~ Pattern[/^\d+$/])
notice('x' =~ Pattern[/y/, /x/])
