$t = "a\n<% if true { -%>\nb\n<% } -%>\nc"
notice(inline_epp($t))
