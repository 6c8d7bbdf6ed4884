unless 1 > 2 { notice('unless ran') }
unless true { notice('not shown') } else { notice('unless else') }
$r = unless false { 'value' }
notice($r)
