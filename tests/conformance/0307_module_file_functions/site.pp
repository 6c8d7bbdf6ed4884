# binary_file, find_template and module_directory find module files and
# directories through the module path.
$b = binary_file('m/b.bin')
notify { 'binary': message => "${b =~ Binary} ${String($b)}" }
notify { 'template': message => find_template('m/nosuch.erb', 'm/t.erb') }
notify { 'no template': message => String(find_template(['m/nosuch.erb'])) }
notify { 'module': message => module_directory('nosuch', 'm') }
notify { 'no module': message => String(module_directory(['nosuch'])) }
