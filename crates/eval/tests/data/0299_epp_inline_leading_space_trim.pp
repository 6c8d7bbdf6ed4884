$t = @(END)
  x
      <%- $v = 1 -%>
  y<%= $v %>
  | END
notice(inline_epp($t))
