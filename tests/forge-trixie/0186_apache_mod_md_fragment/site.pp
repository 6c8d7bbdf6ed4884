# Certificates managed by Apache itself through ACME (mod_md), and extra
# directives added to a vhost with apache::vhost::fragment and to the
# server with apache::custom_config.
class { 'apache':
  default_vhost => false,
}
class { 'apache::mod::md':
  md_certificate_agreement => 'accepted',
  md_contact_email         => 'hostmaster@example.com',
  md_require_https         => 'permanent',
  md_stapling              => 'on',
}
apache::vhost { 'mrtest-acme.example.com':
  port    => 443,
  ssl     => true,
  docroot => '/srv/mrtest-www/acme',
}
apache::vhost::fragment { 'mrtest-acme managed domain':
  vhost   => 'mrtest-acme.example.com',
  port    => 443,
  content => "  MDomain mrtest-acme.example.com\n",
}
apache::custom_config { 'mrtest-server-tokens':
  content       => "ServerTokens Prod\nServerSignature Off\n",
  verify_config => false,
}
