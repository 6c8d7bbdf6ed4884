define mrtestport::open (Integer $port) { }
