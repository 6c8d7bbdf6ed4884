$r = /abc
notice($r)
