sh "$(dirname "$0")/service.sh" setup /tmp/mrtest-svc-base-cmd
sh "$(dirname "$0")/service.sh" start /tmp/mrtest-svc-base-cmd
