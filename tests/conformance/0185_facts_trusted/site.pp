notify { 'mrtest-trusted-certname': message => $trusted['certname'] }
notify { 'mrtest-trusted-auth': message => $trusted['authenticated'] }
notify { 'mrtest-trusted-keys': message => join(keys($trusted).sort, ',') }
notify { 'mrtest-trusted-hostname': message => "${trusted['hostname']} / ${trusted['domain']}" }
