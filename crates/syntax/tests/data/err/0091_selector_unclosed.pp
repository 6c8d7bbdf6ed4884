$y = 'a' ? { 'a' => 1, default => 2
