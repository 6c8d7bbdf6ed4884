class web(Integer $port = 80) { notice($port) }
class { 'web': port => 'eighty' }
