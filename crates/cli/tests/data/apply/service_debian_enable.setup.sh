sh "$(dirname "$0")/service.sh" setup /tmp/mrtest-svc-deb-enable
sh "$(dirname "$0")/service.sh" init /tmp/mrtest-svc-deb-enable
ln -s ../init.d/mrtest-svc-deb-enable /etc/rc2.d/K01mrtest-svc-deb-enable
sh "$(dirname "$0")/service.sh" start /tmp/mrtest-svc-deb-enable
