# certbot with the renewal timer's cron replaced by the module's own renew
# cron (at a fixed time), and a standalone certificate with extra
# arguments.
class { 'letsencrypt':
  email             => 'hostmaster@example.com',
  configure_epel    => false,
  renew_cron_ensure => 'present',
  renew_cron_hour   => 4,
  renew_cron_minute => 17,
}
letsencrypt::certonly { 'mail.example.com':
  plugin          => 'standalone',
  additional_args => ['--preferred-challenges http'],
  key_size        => 4096,
}
