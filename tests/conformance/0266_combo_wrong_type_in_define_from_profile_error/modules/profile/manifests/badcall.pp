class profile::badcall {
  mrtestport::open { 'web': port => '80' }
}
