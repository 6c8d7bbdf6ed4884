# motd on a Windows node: the legal notice is written to the registry
# (registry's registry_value type); this case's facts are the corpus's with
# the kernel and the OS family Windows's.
class { 'motd':
  content            => "Authorised use only.\n",
  windows_motd_title => 'mrtest notice',
}
registry_key { 'HKLM\Software\mrtest':
  ensure => present,
}
registry_value { 'HKLM\Software\mrtest\Managed':
  ensure => present,
  type   => string,
  data   => 'puppet',
}
