$x = versioncmp('1', '2')
notice($x)
