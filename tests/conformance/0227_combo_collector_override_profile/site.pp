include profile::hardening
include profile::configs
