notice('red' =~ Enum['red', 'green'])
notice('blue' =~ Enum['red', 'green'])
notice('RED' =~ Enum['red'])
