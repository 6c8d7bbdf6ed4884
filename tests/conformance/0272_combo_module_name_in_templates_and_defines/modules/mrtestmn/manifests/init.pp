class mrtestmn {
  mrtestmnlib::stamp { 'a': }
  file { '/tmp/mrtest-mn.txt': content => inline_epp('<%= $module_name %>') }
}
