class { 'mrtesthttp': workers => 4 }
