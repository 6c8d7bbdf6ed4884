$m = 'msg'
notice $m
