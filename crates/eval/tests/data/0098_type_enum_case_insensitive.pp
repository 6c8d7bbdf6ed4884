notice('RED' =~ Enum['red', true])
notice('Red' =~ Enum['red', false])
