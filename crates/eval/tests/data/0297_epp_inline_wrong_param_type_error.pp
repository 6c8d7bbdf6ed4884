notice(inline_epp('<%- | Integer $n | -%><%= $n %>', {n => 'x'}))
