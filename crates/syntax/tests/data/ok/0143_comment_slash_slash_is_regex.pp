$r = // # empty regex then a comment
notice($r)
