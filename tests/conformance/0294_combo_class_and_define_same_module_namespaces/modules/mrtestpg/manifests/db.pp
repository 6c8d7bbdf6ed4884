define mrtestpg::db (String $owner = 'mrtest-postgres') {
  exec { "mrtest-createdb-${title}":
    command => "/usr/bin/createdb -O ${owner} ${title}",
    unless  => "/usr/bin/psql -lqt | grep -q ${title}",
    require => Service['mrtest-postgresql'],
  }
}
