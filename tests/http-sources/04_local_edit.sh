# Local edits: newer than the server's Last-Modified (kept, as Puppet keeps
# them), and against a checksum (replaced).
printf 'edited here\n' > out/lm
printf 'edited here\n' > out/sha256
