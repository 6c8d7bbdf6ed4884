# Removes the case's user and group.
userdel mrtest-same >/dev/null 2>&1 || true
groupdel mrtest-same >/dev/null 2>&1 || true
