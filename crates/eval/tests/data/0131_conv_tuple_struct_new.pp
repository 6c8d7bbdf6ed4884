notice(Tuple[Integer, String].new([1, 'a']))
notice(Struct[{a => Integer}].new({a => 1}))
