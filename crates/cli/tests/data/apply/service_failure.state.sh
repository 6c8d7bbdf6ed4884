sh "$(dirname "$0")/service.sh" state /tmp/mrtest-svc-fail
if [ -e /tmp/mrtest-svc-fail/after ]; then echo 'exec ran'; else echo 'exec skipped'; fi
