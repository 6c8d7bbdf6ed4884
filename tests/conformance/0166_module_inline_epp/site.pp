$t = "<% \$items.each |\$i| { %>[<%= \$i %>]<% } %>"
notify { 'mrtest-inline-epp': message => inline_epp($t, { 'items' => [1, 2, 3] }) }
