$list = ['x', 'y']
$n = 3
notice(inline_template('<% @list.each do |i| -%><%= i %>:<%= @n * 2 %> <% end -%>', ' and <%= @list.size %>'))
notice(inline_template("<%= scope['list'].join('/') %> <%= scope.lookupvar('n') + 1 %>"))
