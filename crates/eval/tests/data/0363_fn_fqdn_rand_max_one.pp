notice(fqdn_rand(1, 'fixed seed'))
notice(type(fqdn_rand(1)))
