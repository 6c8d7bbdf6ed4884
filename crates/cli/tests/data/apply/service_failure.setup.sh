sh "$(dirname "$0")/service.sh" setup /tmp/mrtest-svc-fail
