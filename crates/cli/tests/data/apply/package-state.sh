# Shared by the package cases' state scripts (not a case): prints what
# dpkg knows of the package named by $1, and whether its files are there.
name=$1
dpkg-query -W -f='${Package} ${db:Status-Abbrev}${Version}\n' "$name" 2>/dev/null || echo "$name unknown to dpkg"
for path in "/etc/$name.conf" "/usr/share/$name/data"; do
    if [ -e "$path" ]; then echo "$path present"; else echo "$path missing"; fi
done
if apt-mark showmanual "$name" 2>/dev/null | grep -qx "$name"; then echo "$name marked manual"; fi
if apt-mark showauto "$name" 2>/dev/null | grep -qx "$name"; then echo "$name marked auto"; fi
