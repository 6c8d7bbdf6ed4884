class mrtestntp::install {
  package { $mrtestntp::package: ensure => installed }
}
