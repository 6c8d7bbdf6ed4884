$top = 'visible?'
notice(inline_epp('<%- | $x | -%><%= $x %>/<%= $top %>', {x => 1}))
