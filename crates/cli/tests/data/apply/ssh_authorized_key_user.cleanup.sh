# Removes the case's user.
userdel mrtest-sshkey >/dev/null 2>&1 || true
