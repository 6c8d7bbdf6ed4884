$r = //
notice($r)
