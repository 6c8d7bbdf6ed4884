$y = 'a' ? 'a' => 1
notice($y)
