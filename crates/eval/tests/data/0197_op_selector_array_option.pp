notice(3 ? { [1, 2] => 'low', [3, 4] => 'mid', default => 'high' })
notice('B' ? { 'b' => 'case-insensitive', default => 'no' })
