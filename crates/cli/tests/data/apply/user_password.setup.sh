# The account does not exist.
userdel mrtest-pw >/dev/null 2>&1 || true
groupdel mrtest-pw >/dev/null 2>&1 || true
