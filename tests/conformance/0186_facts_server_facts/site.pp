$sf = $server_facts
notify { 'mrtest-server-facts-type': message => String(type($sf, generalized)) }
notify { 'mrtest-server-facts-keys': message => join(keys($sf).sort, ',') }
