notice(['apple', 'Apple', 'banana'].unique |$s| { $s.downcase })
