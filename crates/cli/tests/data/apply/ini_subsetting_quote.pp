# Only no quote, `"` and `'` quote a value.
ini_subsetting { 'quote':
  path       => '/tmp/mrtest-apply/x.ini',
  setting    => 'k',
  subsetting => 's',
  quote_char => '<',
}
