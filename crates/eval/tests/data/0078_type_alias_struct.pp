type Server = Struct[{host => String[1], port => Integer}]
$s = {host => 'db', port => 5432}
notice($s =~ Server)
notice({host => '', port => 1} =~ Server)
notice(Server)
