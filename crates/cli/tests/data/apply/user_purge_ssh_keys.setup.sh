# A user with two key files: a managed key, a stray one and one without a
# comment in authorized_keys, and a stray one in extra_keys.
userdel -r mrtest-purgekey >/dev/null 2>&1 || true
mkdir -p /tmp/mrtest-apply/home
useradd -m -d /tmp/mrtest-apply/home/mrtest-purgekey -s /bin/sh mrtest-purgekey
install -d -o mrtest-purgekey -g mrtest-purgekey -m 0700 /tmp/mrtest-apply/home/mrtest-purgekey/.ssh
printf '%s\n' \
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAkeep keep@example.com' \
  'ssh-rsa AAAAB3NzaC1yc2EAAAAstray stray@example.com' \
  'ssh-rsa AAAAB3NzaC1yc2EAAAAnoname' \
  > /tmp/mrtest-apply/home/mrtest-purgekey/.ssh/authorized_keys
printf '%s\n' '# extra keys' 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAold old@example.com' \
  > /tmp/mrtest-apply/home/mrtest-purgekey/.ssh/extra_keys
chown mrtest-purgekey:mrtest-purgekey /tmp/mrtest-apply/home/mrtest-purgekey/.ssh/*
chmod 0600 /tmp/mrtest-apply/home/mrtest-purgekey/.ssh/*
