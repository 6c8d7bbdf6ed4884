# The EPEL repositories (epel) as yumrepo resources with their signing key,
# for a Rocky Linux 9 node (this case's facts are the corpus's with the
# operating system Rocky's): the testing repository off, the source one
# unmanaged.
class { 'epel':
  epel_testing_enabled => false,
  epel_source_managed  => false,
}
