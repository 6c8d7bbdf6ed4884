# Removes the case's user.
userdel mrtest-purgekey >/dev/null 2>&1 || true
