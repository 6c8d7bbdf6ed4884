# Who owns the .ssh directory and the key file Puppet created for the user.
cd /tmp/mrtest-apply/home/mrtest-sshkey && stat -c '%n %U %G %a' .ssh .ssh/authorized_keys 2>&1
