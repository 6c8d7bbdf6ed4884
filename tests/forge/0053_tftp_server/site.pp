# A TFTP server with a file served.
class { 'tftp':
  directory => '/srv/tftp',
  address   => $facts['networking']['ip'],
  options   => '--secure',
  inetd     => false,
}
tftp::file { 'pxelinux.0':
  source => 'puppet:///modules/tftp/pxelinux.0',
}
