# -%> trims the blanks after it on its line, with or without a line break.
$t = @(END)
a <% if false { -%>[x] <% } -%>  b
<%- $z = 1 -%>   	
c <%# comment -%>  d
| END
notice(inline_epp($t))
