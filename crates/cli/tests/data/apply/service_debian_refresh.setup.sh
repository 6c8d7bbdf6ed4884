sh "$(dirname "$0")/service.sh" setup /tmp/mrtest-svc-deb-refresh
sh "$(dirname "$0")/service.sh" init /tmp/mrtest-svc-deb-refresh
update-rc.d mrtest-svc-deb-refresh defaults >/dev/null
sh "$(dirname "$0")/service.sh" start /tmp/mrtest-svc-deb-refresh
