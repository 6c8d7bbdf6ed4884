sh "$(dirname "$0")/service.sh" state /tmp/mrtest-svc-deb-enable
