define mrtestjava::install () {
  package { "mrtest-openjdk-${title}": ensure => installed }
  file { "/tmp/mrtest-java-${title}.env": content => "JAVA=${title}\n" }
}
