notice(camelcase('hello_world'))
notice(camelcase('abc'))
notice(camelcase(['foo_bar', 'x_y_z']))
notice('snake_case_name'.camelcase)
