# The README's .tar.gz example: download a release, check its checksum,
# unpack it into an application directory and remove the download.
$install_path   = '/opt/mrtest-wso2'
$package_name   = 'wso2esb'
$package_ensure = '4.9.0'
$archive_name   = "${package_name}-${package_ensure}.tgz"

file { 'wso2_appdir':
  ensure => directory,
  path   => $install_path,
  owner  => 'root',
  group  => 'root',
  mode   => '0755',
}
archive { $archive_name:
  path          => "/tmp/${archive_name}",
  source        => "https://repo.example.com/repository/wso2/${archive_name}",
  checksum      => '2ca09f0b36ca7d71b762e14ea2ff09d5eac57558',
  checksum_type => 'sha1',
  extract       => true,
  extract_path  => $install_path,
  creates       => "${install_path}/${package_name}-${package_ensure}",
  cleanup       => true,
  require       => File['wso2_appdir'],
}
