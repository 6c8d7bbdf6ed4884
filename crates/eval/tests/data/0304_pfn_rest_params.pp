function collect($first, *$rest) { "${first}: ${rest}" }
notice(collect(1))
notice(collect(1, 2, 3))
