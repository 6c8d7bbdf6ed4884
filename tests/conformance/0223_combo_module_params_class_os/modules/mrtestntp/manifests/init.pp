class mrtestntp (
  String $package        = $mrtestntp::params::package,
  String $service        = $mrtestntp::params::service,
  String $config         = $mrtestntp::params::config,
  Array[String] $servers = ['0.mrtest.pool.example', '1.mrtest.pool.example'],
) inherits mrtestntp::params {
  contain mrtestntp::install
  contain mrtestntp::config
  contain mrtestntp::service
  Class['mrtestntp::install'] -> Class['mrtestntp::config'] ~> Class['mrtestntp::service']
}
