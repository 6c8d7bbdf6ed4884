# SSSD joined to an Active Directory domain, with tuned NSS and PAM
# responders and the SSH responder for keys stored in the directory.
class { 'sssd':
  services    => ['nss', 'pam', 'ssh'],
  domains     => {
    'ad.example.com' => {
      'id_provider'               => 'ad',
      'access_provider'           => 'ad',
      'ad_domain'                 => 'ad.example.com',
      'krb5_realm'                => 'AD.EXAMPLE.COM',
      'cache_credentials'         => true,
      'default_shell'             => '/bin/bash',
      'fallback_homedir'          => '/home/%u',
      'use_fully_qualified_names' => false,
    },
  },
  nss_options => {
    'filter_users'        => ['root', 'mrtest-local'],
    'entry_cache_timeout' => 300,
  },
  pam_options => {
    'offline_credentials_expiration' => 2,
  },
}
