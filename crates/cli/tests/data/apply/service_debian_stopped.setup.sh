sh "$(dirname "$0")/service.sh" setup /tmp/mrtest-svc-deb-stopped
sh "$(dirname "$0")/service.sh" init /tmp/mrtest-svc-deb-stopped
update-rc.d mrtest-svc-deb-stopped defaults >/dev/null
sh "$(dirname "$0")/service.sh" start /tmp/mrtest-svc-deb-stopped
