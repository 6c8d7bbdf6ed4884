# stdlib's type_of: the value's type in detail.
notice(type_of({ 'a' => [1, 'two'], 'b' => undef }))
notice(type_of(3.5))
notice(type_of('text') == String[4, 4])
