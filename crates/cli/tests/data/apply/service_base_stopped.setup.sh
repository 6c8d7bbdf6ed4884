sh "$(dirname "$0")/service.sh" setup /tmp/mrtest-svc-base-stopped
sh "$(dirname "$0")/service.sh" start /tmp/mrtest-svc-base-stopped
