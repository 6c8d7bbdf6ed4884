$r = File['a']
$r { mode => '0600' }
