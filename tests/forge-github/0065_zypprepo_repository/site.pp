# A zypper repository (zypprepo type), which writes an ini file under
# /etc/zypp/repos.d wherever it is applied.
zypprepo { 'mrtest-tools':
  descr       => 'mrtest tools',
  baseurl     => 'https://download.example.com/repositories/tools/openSUSE_Leap_15.5/',
  enabled     => 1,
  autorefresh => 1,
  gpgcheck    => 1,
  gpgkey      => 'https://download.example.com/repositories/tools/repodata/repomd.xml.key',
  type        => 'rpm-md',
}
