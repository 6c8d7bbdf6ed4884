Package { ensure => installed }
Service { ensure => running, enable => true }
package { 'mrtest-nginx': }
service { 'mrtest-nginx': require => Package['mrtest-nginx'] }
service { 'mrtest-cron': enable => false }
