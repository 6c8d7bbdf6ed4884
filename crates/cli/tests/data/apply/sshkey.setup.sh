# A known_hosts file with a comment, a hashed host name, a host with
# aliases and hosts to change and to remove.
mkdir -p /tmp/mrtest-apply/ssh
cat > /tmp/mrtest-apply/ssh/known_hosts <<'KEYS'
# known hosts
|1|F1E1KeoE/eEWhi10WpGv4OdiO6Y=|3988QV0VE8wmZL7suNrYQLITLCg= ssh-rsa AAAAB3NzaC1yc2EAAAAhashed
kept.example.com,kept,10.0.0.1 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAkept
change.example.com ssh-rsa AAAAB3NzaC1yc2EAAAAold
change.example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAchange
gone.example.com ssh-rsa AAAAB3NzaC1yc2EAAAAgone
KEYS
