$top = 'topvalue'
notice(inline_epp('top=<%= $top %>'))
