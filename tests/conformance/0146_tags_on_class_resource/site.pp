class mrtest_ctag (String $x = 'y') { }
class { 'mrtest_ctag': tag => 'mrtest_decl_tag' }
