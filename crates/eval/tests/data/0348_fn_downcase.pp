notice(downcase('HeLLo'))
notice(downcase(['A', 'B']))
notice(downcase({'K' => 'V'}))
notice('ÀÉ'.downcase)
