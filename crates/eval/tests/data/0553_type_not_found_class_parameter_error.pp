class foo(Nosuch $p) { notice($p) }
class { 'foo': p => 1 }
