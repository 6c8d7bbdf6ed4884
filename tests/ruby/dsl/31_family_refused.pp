# A word where the property's own should= takes only a list: the value is
# refused whole, as the catalog is turned into resources, and nothing is
# applied (the other resource included).
mrtest_family { 'lo':
  address => '127.0.0.1',
  flags   => 'up',
}
file { '/tmp/mrtest-rbtypes/family-untouched.txt': ensure => file, content => "new\n" }
