# The account (but its ids, which the machine chooses), its password field,
# and whether /etc/passwd's backup holds it.
getent passwd mrtest-pw | cut -d: -f1,6,7
getent shadow mrtest-pw | cut -d: -f1,2
grep -q '^mrtest-pw:' /etc/passwd- && echo "in /etc/passwd-" || echo "not in /etc/passwd-"
