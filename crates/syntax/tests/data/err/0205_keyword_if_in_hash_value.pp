$h = { 'a' => if }
