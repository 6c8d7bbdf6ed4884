# The README's simplest use: install the distribution's default OpenJDK
# development kit and point the java alternatives and JAVA_HOME at it.
class { 'java': }
