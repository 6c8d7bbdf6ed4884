notice($facts['os']['family'])
notice($trusted['certname'])
