class mrtestnginx (String $server_name = $facts['networking']['fqdn']) {
  file { '/tmp/mrtest-nginx': ensure => directory }
  file { '/tmp/mrtest-nginx/mime.types':
    content => file('mrtestnginx/mime.types'),
  }
  file { '/tmp/mrtest-nginx/site.conf':
    content => epp('mrtestnginx/site.epp', { 'name' => $server_name }),
  }
  File['/tmp/mrtest-nginx'] -> File['/tmp/mrtest-nginx/mime.types', '/tmp/mrtest-nginx/site.conf']
}
