# No provider is suitable from the start and none becomes so: the
# resources fail once nothing else can be done, their dependents are
# skipped, and the type is named once at the end of the run; the one
# naming its unsuitable provider says so.
mrtest_late { '/tmp/mrtest-rbtypes/first.txt': ensure => present }
mrtest_late { '/tmp/mrtest-rbtypes/second.txt': ensure => present }
mrtest_late { '/tmp/mrtest-rbtypes/named.txt': ensure => present, provider => never }
notify { 'after the first': require => Mrtest_late['/tmp/mrtest-rbtypes/first.txt'] }
file { '/tmp/mrtest-rbtypes/other.txt': content => "other\n" }
