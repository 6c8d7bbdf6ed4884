# Nothing changed upstream. A file from a server that sends no time is
# older than the request, but only to the second: make it plainly older.
touch -d '2020-01-01 00:00:00 UTC' out/none
