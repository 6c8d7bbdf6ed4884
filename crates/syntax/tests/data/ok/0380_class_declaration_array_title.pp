class { ['a', 'b']: }
