# README "Network files": a zip already on a mounted share is extracted in
# place, without a checksum and without deleting it; a second archive comes
# from the Puppet file server.
archive { '/srv/mrtest-share/software.zip':
  source        => '/srv/mrtest-share/software.zip',
  extract       => true,
  extract_path  => '/opt',
  extract_flags => '-of',
  checksum_type => 'none',
  cleanup       => false,
}
archive { '/root/mrtest-help.tar.gz':
  source       => 'puppet:///modules/profile/help.tar.gz',
  extract      => true,
  extract_path => '/root',
  creates      => '/root/help',
}
