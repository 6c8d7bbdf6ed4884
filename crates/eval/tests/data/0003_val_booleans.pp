notice(true)
notice(false)
notice([true, false])
$t = true
notice("${t}/${!$t}")
