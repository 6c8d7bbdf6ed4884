$r = /^a.*$/
notice($r)
