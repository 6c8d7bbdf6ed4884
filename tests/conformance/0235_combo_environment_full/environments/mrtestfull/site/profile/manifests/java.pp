class profile::java (String $version = '17') {
  mrtestjava::install { "jdk${version}": }
}
