sh "$(dirname "$0")/service.sh" cleanup /tmp/mrtest-svc-deb-enable
