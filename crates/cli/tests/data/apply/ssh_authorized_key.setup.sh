# An authorized_keys file written by hand: a comment, keys with and without
# options (one quoting a comma), an unnamed key and uneven spacing, which
# Puppet rewrites in its own form.
mkdir -p /tmp/mrtest-apply/ssh
cat > /tmp/mrtest-apply/ssh/authorized_keys <<'KEYS'
# keys of the team
ssh-rsa AAAAB3NzaC1yc2EAAAAkept kept@example.com
command="/bin/echo a,b",no-pty ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAchange change@example.com

ssh-ed25519  AAAAC3NzaC1lZDI1NTE5AAAAgone   gone@example.com
ssh-rsa AAAAB3NzaC1yc2EAAAAunnamed
KEYS
chmod 0644 /tmp/mrtest-apply/ssh/authorized_keys
