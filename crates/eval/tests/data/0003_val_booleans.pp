notice(true)
notice(false)
notice([true, false])
notice("${true}/${false}")
