# Enrolling the node in a FreeIPA domain with a one-time password, with
# home directories created at first login. The module's sudo setup is
# left off: its sudoers class matches the OS family against a bare
# RedHat, which Puppet 4 and later read as a resource type that does not
# exist.
class { 'ipaclient':
  password      => 'mrtest-otp-password',
  server        => ['ipa1.example.com', 'ipa2.example.com'],
  domain        => 'example.com',
  realm         => 'EXAMPLE.COM',
  mkhomedir     => true,
  automount     => false,
  fixed_primary => true,
  sudo          => false,
}
