# Every missing or mismatched parameter is named, each on a line of its own.
class mrtest (String $a, Integer $b, String $c = 'x', Boolean $d) {}
class { 'mrtest': b => 'two' }
