# Shared by the package cases' setup and cleanup scripts (not a case):
# `sh package.sh build NAME [SUGGESTED]` builds
# /tmp/mrtest-pkg/NAME_1.0_all.deb, a tiny package with one configuration
# file and one plain file (suggesting the package SUGGESTED, which dpkg
# then knows of as not installed), after purging any earlier NAME;
# `sh package.sh purge NAME` purges NAME and removes /tmp/mrtest-pkg.
set -e
action=$1
name=$2
suggested=${3:-}
case "$name" in
mrtest-pkg-*) ;;
*) echo "package.sh: refusing to touch '$name'" >&2; exit 2 ;;
esac
dpkg --purge "$name" >/dev/null 2>&1 || true
rm -rf /tmp/mrtest-pkg
[ "$action" = purge ] && exit 0
root=/tmp/mrtest-pkg/build/$name
mkdir -p "$root/DEBIAN" "$root/etc" "$root/usr/share/$name"
cat > "$root/DEBIAN/control" <<CONTROL
Package: $name
Version: 1.0
Architecture: all
Maintainer: Marionette tests <mrtest@example.com>
Description: Marionette test package
 Installed and removed by crates/cli/tests/apply_system.rs.
CONTROL
[ -z "$suggested" ] || echo "Suggests: $suggested" >> "$root/DEBIAN/control"
echo "/etc/$name.conf" > "$root/DEBIAN/conffiles"
echo "setting = 1" > "$root/etc/$name.conf"
echo "data" > "$root/usr/share/$name/data"
SOURCE_DATE_EPOCH=0 dpkg-deb --root-owner-group --build "$root" "/tmp/mrtest-pkg/${name}_1.0_all.deb" >/dev/null
