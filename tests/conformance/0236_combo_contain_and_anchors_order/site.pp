class mrtestdb {
  contain mrtestdb::install
  contain mrtestdb::config
  Class['mrtestdb::install'] -> Class['mrtestdb::config']
}
class mrtestdb::install { package { 'mrtest-mariadb': } }
class mrtestdb::config { file { '/tmp/mrtest-my.cnf': ensure => file } }
class mrtestapp { package { 'mrtest-webapp': } }
include mrtestdb
include mrtestapp
Class['mrtestdb'] -> Class['mrtestapp']
