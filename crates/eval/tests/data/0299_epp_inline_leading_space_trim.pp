$t = "x\n    <%- $v = 1 -%>\ny<%= $v %>"
notice(inline_epp($t))
