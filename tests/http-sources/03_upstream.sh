# The server's file changes; the local copy from lm is made older than it.
printf 'from the web, second edition\n' > doc/motd
touch -d '2024-06-01 10:00:00 UTC' doc/motd
touch -d '2020-01-01 00:00:00 UTC' out/lm
# A file from a server that sends no time is older than the request, but
# only to the second: make it plainly older.
touch -d '2020-01-01 00:00:00 UTC' out/none
