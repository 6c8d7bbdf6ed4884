notice(Init[Integer])
$i = Init[Integer]
notice('42' =~ $i)
