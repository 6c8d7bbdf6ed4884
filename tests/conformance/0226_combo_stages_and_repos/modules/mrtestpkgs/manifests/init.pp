class mrtestpkgs {
  package { ['mrtest-git', 'mrtest-jq']: ensure => installed }
}
