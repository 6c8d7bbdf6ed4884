printf 'from the web, third edition\n' > doc/motd
touch -d '2024-07-01 10:00:00 UTC' doc/motd
touch -d '2020-01-01 00:00:00 UTC' out/lm
touch -d '2020-01-01 00:00:00 UTC' out/none
