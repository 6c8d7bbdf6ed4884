$_var = 'underscore'
$_ = 'x'
$_list = ['a', 'b']
notice("${_var} and $_var and ${_var}s and ${_list[1]} and ${_list.join('+')}")
