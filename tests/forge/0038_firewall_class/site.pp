# The firewall class installing the persistence packages.
class { 'firewall': }
resources { 'firewall':
  purge => true,
}
