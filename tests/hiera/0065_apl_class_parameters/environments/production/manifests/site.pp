include ntp
include ssh
include users
