notice(inline_epp('Hello <%= 1 + 2 %>!'))
