# The account's primary group is the group of its name.
id -gn mrtest-same 2>&1
