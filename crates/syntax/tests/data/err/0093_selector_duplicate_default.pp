$y = 'a' ? { default => 1, default => 2 }
