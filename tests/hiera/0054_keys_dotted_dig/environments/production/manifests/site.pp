notify { 'mrtest dig alice group 1': message => lookup('mrtest::users.mrtest-alice.groups.1') }
notify { 'mrtest dig ssh key type': message => lookup('mrtest::users.mrtest-alice.ssh_keys.laptop.type') }
notify { 'mrtest dig quoted': message => String(lookup('mrtest::sysctl."net.ipv4.ip_forward"')) }
notify { 'mrtest dig missing with default': message => lookup('mrtest::users.mrtest-carol.uid', Integer, 'first', 0) }
notify { 'mrtest dig index': message => lookup('mrtest::ntp_servers.0') }
