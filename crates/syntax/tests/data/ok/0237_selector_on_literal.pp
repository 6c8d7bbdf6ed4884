notice('a' ? { 'a' => 1, default => 0 })
