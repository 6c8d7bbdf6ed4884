function mrtest_uri::by_key(String $key, Hash $options, Puppet::LookupContext $context) {
  if $key == 'mrtest::ldap_uri' and $options['uri'] =~ /ldap2/ {
    $options['uri']
  } elsif $key == 'mrtest::first_ldap_uri' {
    $options['uri']
  } else {
    $context.not_found
  }
}
