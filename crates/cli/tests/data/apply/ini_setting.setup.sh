# INI files the ini_setting case edits.
d=/tmp/mrtest-apply/ini
mkdir -p $d
cat > $d/app.ini <<'INI'
# global comment
top = 1

[main]
; a comment
key1 = old
#key2 = commented

[other]
  indented = yes
INI
cat > $d/remove.ini <<'INI'
[gone]
only = 1
[stay]
x = 1
INI
cat > $d/secret.ini <<'INI'
[s]
password = old
token = old
later = old
INI
