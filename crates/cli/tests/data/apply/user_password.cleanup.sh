# Removes the case's user and its group.
userdel mrtest-pw >/dev/null 2>&1 || true
groupdel mrtest-pw >/dev/null 2>&1 || true
