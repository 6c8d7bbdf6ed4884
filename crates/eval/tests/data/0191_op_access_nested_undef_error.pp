$h = {a => 1}
notice($h['x']['y'])
