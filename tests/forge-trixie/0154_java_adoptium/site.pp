# An Adoptium Temurin JDK unpacked under /usr/lib/jvm beside the packaged
# one, with a stable symlink to it (README "Adoptium Temurin").
class { 'java': }
java::adoptium { 'mrtest-temurin17':
  ensure         => 'present',
  version_major  => '17',
  version_minor  => '0',
  version_patch  => '9',
  version_build  => '9',
  manage_symlink => true,
  symlink_name   => 'mrtest-temurin17',
}
