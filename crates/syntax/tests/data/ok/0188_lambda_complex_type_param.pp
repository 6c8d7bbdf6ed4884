{ 'a' => 1 }.each |Tuple[String, Integer] $pair| { notice($pair) }
