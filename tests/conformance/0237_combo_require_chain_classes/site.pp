class mrtest_java { package { 'mrtest-jre': } }
class mrtest_tomcat {
  require mrtest_java
  package { 'mrtest-tomcat': }
  service { 'mrtest-tomcat': require => Package['mrtest-tomcat'] }
}
class mrtest_webapp {
  require mrtest_tomcat
  file { '/tmp/mrtest-webapp.war': ensure => file, notify => Service['mrtest-tomcat'] }
}
include mrtest_webapp
