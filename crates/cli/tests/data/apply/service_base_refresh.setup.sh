sh "$(dirname "$0")/service.sh" setup /tmp/mrtest-svc-base-refresh
sh "$(dirname "$0")/service.sh" start /tmp/mrtest-svc-base-refresh
