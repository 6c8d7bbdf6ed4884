$h = {}
notice($h)
