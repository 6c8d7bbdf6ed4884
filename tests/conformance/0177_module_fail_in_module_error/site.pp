class { 'mrtestfailing': flavour => 'bad' }
