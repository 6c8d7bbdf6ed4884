$v = {list => [1, {deep => [true, undef]}], 'str' => "q'uote"}
notice($v)
notice(String($v))
