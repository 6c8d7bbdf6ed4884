notice('a\nb')
notice('a\\b')
notice('a\'b')
notice('a\$b')
