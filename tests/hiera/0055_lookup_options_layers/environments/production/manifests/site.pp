include ntp, ssh
