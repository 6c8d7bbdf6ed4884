class mrtest_typed (Integer[1, 10] $count) { }
class { 'mrtest_typed': count => 'many' }
