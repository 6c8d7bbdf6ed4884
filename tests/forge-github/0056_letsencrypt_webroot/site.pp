# certbot (letsencrypt) registered with an email, and a certificate for
# two names by the webroot plugin, renewed by cron with a deploy hook.
class { 'letsencrypt':
  email          => 'hostmaster@example.com',
  configure_epel => false,
}
letsencrypt::certonly { 'www.example.com':
  domains              => ['www.example.com', 'example.com'],
  plugin               => 'webroot',
  webroot_paths        => ['/var/www/mrtest'],
  manage_cron          => true,
  deploy_hook_commands => ['systemctl reload nginx'],
}
