package { 'mrtest-chain-pkg': ensure => installed }
-> file { '/tmp/mrtest-chain.conf': ensure => file }
~> service { 'mrtest-chain-svc': ensure => running }
