class mrtest_lead { notify { 'mrtest-lead': } }
include ::mrtest_lead
notify { 'mrtest-lead-ref': require => Class['::mrtest_lead'] }
