sh "$(dirname "$0")/service.sh" setup /tmp/mrtest-svc-deb
sh "$(dirname "$0")/service.sh" init /tmp/mrtest-svc-deb
