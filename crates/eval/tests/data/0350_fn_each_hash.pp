{b => 2, a => 1}.each |$k, $v| { notice("${k}:${v}") }
