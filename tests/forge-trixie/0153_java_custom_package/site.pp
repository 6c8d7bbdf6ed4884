# A Java package other than the default one: the alternative, its path and
# JAVA_HOME are given explicitly, as the README's alternative example does.
class { 'java':
  package               => 'openjdk-17-jdk-headless',
  package_options       => ['--no-install-recommends'],
  java_alternative      => 'java-1.17.0-openjdk-amd64',
  java_alternative_path => '/usr/lib/jvm/java-1.17.0-openjdk-amd64/bin/java',
  java_home             => '/usr/lib/jvm/java-1.17.0-openjdk-amd64/',
}
