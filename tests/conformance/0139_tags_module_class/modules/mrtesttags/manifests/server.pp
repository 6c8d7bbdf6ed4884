class mrtesttags::server {
  file { '/tmp/mrtest-tagsrv': ensure => file }
}
