# Files the file_line case edits.
d=/tmp/mrtest-apply/fl
mkdir -p $d
printf 'a\nb\n' > $d/plain
printf 'export PROXY=old\nother\n' > $d/match
printf '[main]\nx=1\n' > $d/after
printf 'keep\ndrop\nkeep2\ndrop\n' > $d/absent
printf 'keep\n#remove me 1\n#remove me 2\n' > $d/absent_match
printf 'key=old\n' > $d/noreplace
printf 'x\n' > $d/noappend
printf 'k=1\nk=new\nk=2\n' > $d/all
printf 'a\nb' > $d/nonl
printf 'first\nsecond\n' > $d/present
printf 'a\n[s]\nb\n' > $d/match_after
