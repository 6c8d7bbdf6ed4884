# An SNMPv3 user (snmp::snmpv3_user) with SHA and AES, and the SNMP client
# tools with a default configuration.
include snmp
snmp::snmpv3_user { 'mrtest-monitor':
  authpass => 'mrtest-auth-pass',
  authtype => 'SHA',
  privpass => 'mrtest-priv-pass',
  privtype => 'AES',
}
class { 'snmp::client':
  snmp_config => ['defVersion 3', 'defSecurityName mrtest-monitor'],
}
