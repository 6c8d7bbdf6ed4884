# A user whose home lives under the scratch directory, without a .ssh
# directory: the key's default target is ~mrtest-sshkey/.ssh/authorized_keys.
userdel -r mrtest-sshkey >/dev/null 2>&1 || true
mkdir -p /tmp/mrtest-apply/home
useradd -m -d /tmp/mrtest-apply/home/mrtest-sshkey -s /bin/sh mrtest-sshkey
