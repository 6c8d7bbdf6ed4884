notice({ 'a' => 1 }.keys)
