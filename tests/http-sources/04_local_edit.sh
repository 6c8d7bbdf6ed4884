# Local edits: newer than the server's Last-Modified (kept, as Puppet keeps
# them), and against a checksum (replaced).
printf 'edited here\n' > out/lm
printf 'edited here\n' > out/sha256
# A file from a server that sends no time is older than the request only
# to the second, and step 03 wrote it moments ago: a minute older makes it
# plainly so, still this year (both tools print it as NOW).
touch -d '1 minute ago' out/none
