# INI files the ini_subsetting case edits.
d=/tmp/mrtest-apply/ini
mkdir -p $d
cat > $d/sub.ini <<'INI'
[java]
args = "-Xmx1g -Dfoo=bar"
flags = a,b,c
single = -only
exact = -server -client
INI
