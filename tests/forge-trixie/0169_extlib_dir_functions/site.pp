# extlib's path helpers: every parent of an application directory created
# with extlib::mkdir_p, the parents listed by extlib::dir_split, and a
# config path built with extlib::path_join.
$created = extlib::mkdir_p('/srv/mrtest-app/releases/current')
$parents = extlib::dir_split('/etc/mrtest-app/conf.d')
$config  = extlib::path_join(['/etc/mrtest-app', 'conf.d', 'main.conf'])

file { $config:
  ensure  => file,
  content => "# created: ${join($created, ' ')}\n# parents: ${join($parents, ' ')}\n",
}
notify { 'mrtest-separator':
  message => "separator ${extlib::file_separator()} cleaned ${extlib::dir_clean('/etc/mrtest-app')}",
}
