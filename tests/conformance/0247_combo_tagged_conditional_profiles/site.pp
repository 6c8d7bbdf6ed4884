class profile::tagger {
  tag 'mrtest_monitored'
  include profile::monitoring
}
class profile::monitoring {
  if tagged('mrtest_monitored') {
    package { 'mrtest-agent-monitored': }
  } else {
    package { 'mrtest-agent-plain': }
  }
}
include profile::tagger
