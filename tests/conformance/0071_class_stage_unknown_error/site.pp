class mrtest_staged { }
class { 'mrtest_staged': stage => 'mrtest_nostage' }
