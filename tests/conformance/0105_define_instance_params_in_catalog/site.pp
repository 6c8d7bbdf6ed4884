define mrtest_showparams (
  Integer $count = 2,
  Optional[String] $note = undef,
  Hash $extra = {},
) { }
mrtest_showparams { 'p1': }
mrtest_showparams { 'p2': count => 9, note => 'hi', extra => { 'k' => 'v' } }
