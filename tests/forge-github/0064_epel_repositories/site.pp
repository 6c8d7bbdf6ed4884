# The EPEL repositories (epel) as yumrepo resources, declared on a Debian
# node: the module's classes only compute repository URLs from the facts.
class { 'epel':
  epel_testing_enabled => false,
  epel_source_managed  => false,
}
