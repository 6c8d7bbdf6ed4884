# Files whose lines make file_line fail.
d=/tmp/mrtest-apply/fl
mkdir -p $d
printf 'k=1\nk=2\n' > $d/twice
printf '[a]\n[a]\n' > $d/after_twice
