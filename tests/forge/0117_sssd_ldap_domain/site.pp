# SSSD resolving users and groups from an LDAP directory over TLS, with
# the NSS, PAM and sudo responders.
class { 'sssd':
  services => ['nss', 'pam', 'sudo'],
  domains  => {
    'example.com' => {
      'id_provider'       => 'ldap',
      'auth_provider'     => 'ldap',
      'sudo_provider'     => 'ldap',
      'ldap_uri'          => ['ldaps://ldap1.example.com', 'ldaps://ldap2.example.com'],
      'ldap_search_base'  => 'dc=example,dc=com',
      'ldap_tls_reqcert'  => 'demand',
      'cache_credentials' => true,
      'enumerate'         => false,
    },
  },
}
