sh "$(dirname "$0")/mount-umount.sh"
