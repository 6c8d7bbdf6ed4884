# Shared by the service cases' scripts (not a case). DIR is
# /tmp/mrtest-svc-NAME, and the service is mrtest-svc-NAME.
#   sh service.sh setup DIR      writes DIR/daemon, a shell loop that
#                                appends a line to DIR/starts and writes
#                                its pid to DIR/pid when it starts
#   sh service.sh init DIR       also writes /etc/init.d/mrtest-svc-NAME
#                                for it (start, stop, restart, status)
#   sh service.sh start DIR      starts the daemon in the background
#   sh service.sh state DIR      whether it runs, how often it started,
#                                and the service's rc links
#   sh service.sh cleanup DIR    stops the daemon (by the pid it wrote) and
#                                removes DIR, the init script and its links
action=$1
dir=$2
name=$(basename "$dir")
case "$dir" in
/tmp/mrtest-svc-*) ;;
*) echo "service.sh: refusing to touch '$dir'" >&2; exit 2 ;;
esac
# Whether the daemon runs: its process exists and is not a zombie (a
# killed daemon stays one until something reaps it, which the init of a
# container may never do).
running() {
    [ -f "$dir/pid" ] || return 1
    pid=$(cat "$dir/pid")
    [ -n "$pid" ] && [ -r "/proc/$pid/status" ] && ! grep -q '^State:.*zombie' "/proc/$pid/status"
}
case "$action" in
setup)
    sh "$0" cleanup "$dir"
    mkdir -p "$dir"
    cat > "$dir/daemon" <<DAEMON
echo started >> $dir/starts
echo \$\$ > $dir/pid
while :; do sleep 1; done
DAEMON
    ;;
init)
    cat > "/etc/init.d/$name" <<INIT
#!/bin/sh
### BEGIN INIT INFO
# Provides:          $name
# Required-Start:
# Required-Stop:
# Default-Start:     2 3 4 5
# Default-Stop:      0 1 6
# Short-Description: Marionette test daemon
### END INIT INFO
case "\$1" in
start|stop|status) exec sh $(realpath "$0") "\$1" $dir ;;
restart) sh $(realpath "$0") stop $dir; exec sh $(realpath "$0") start $dir ;;
*) echo "Usage: \$0 {start|stop|restart|status}" >&2; exit 2 ;;
esac
INIT
    chmod 755 "/etc/init.d/$name"
    ;;
start)
    running && exit 0
    /bin/sh "$dir/daemon" >/dev/null 2>&1 &
    # Wait until it wrote its pid, so that whatever looks next finds it.
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        running && exit 0
        sleep 0.2
    done
    exit 1
    ;;
stop)
    running && kill "$(cat "$dir/pid")"
    rm -f "$dir/pid"
    exit 0
    ;;
status)
    running && exit 0
    exit 3
    ;;
state)
    # A daemon started in the background may not have written its pid yet.
    running || sleep 1
    if running; then echo "daemon running"; else echo "daemon not running"; fi
    echo "started $(cat "$dir/starts" 2>/dev/null | wc -l) times"
    for link in /etc/rc?.d/[SK][0-9][0-9]"$name"; do
        [ -L "$link" ] && echo "$link -> $(readlink "$link")"
    done
    exit 0
    ;;
cleanup)
    if running; then
        kill "$(cat "$dir/pid")"
    fi
    if [ -e "/etc/init.d/$name" ] || ls /etc/rc?.d/*"$name" >/dev/null 2>&1; then
        update-rc.d -f "$name" remove >/dev/null 2>&1
        rm -f "/etc/init.d/$name" /etc/rc?.d/[SK][0-9][0-9]"$name"
    fi
    rm -rf "$dir"
    ;;
esac
