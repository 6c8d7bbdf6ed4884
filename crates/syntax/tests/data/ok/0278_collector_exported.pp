Sshkey <<| |>>
Nagios_host <<| tag == 'web' |>>
