notice(inline_epp('<%- | String $who, Integer $n = 2 | -%>Hi <%= $who %> x<%= $n %>', {who => 'bob'}))
