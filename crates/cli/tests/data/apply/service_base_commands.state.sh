sh "$(dirname "$0")/service.sh" state /tmp/mrtest-svc-base-cmd
echo "restarted $(cat /tmp/mrtest-svc-base-cmd/restarts 2>/dev/null | wc -l) times"
