notice(sprintf('%<name>s is %<age>d', {name => 'Ann', age => 30}))
notice(sprintf('%{x}-%{y}', {x => 1, y => 2}))
