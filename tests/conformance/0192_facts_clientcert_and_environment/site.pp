notify { 'mrtest-clientcert': message => "${clientcert} ${environment}" }
