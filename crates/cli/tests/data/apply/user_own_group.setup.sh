# Neither the user nor the group exists.
userdel mrtest-same >/dev/null 2>&1 || true
groupdel mrtest-same >/dev/null 2>&1 || true
