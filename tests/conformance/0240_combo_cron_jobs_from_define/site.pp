class profile::backups (Hash $jobs) {
  $jobs.each |$name, $spec| {
    mrtestbackup::job { $name: * => $spec }
  }
}
define mrtestbackup::job (String $path, String $hour = '2', Boolean $compress = true) {
  $minute = fqdn_rand(60, $title)
  file { "/tmp/mrtest-cron.d/backup-${title}":
    ensure  => file,
    content => "${minute} ${hour} * * * root /usr/local/bin/mrtest-backup ${path}${if $compress { ' --gzip' }}\n",
  }
}
class { 'profile::backups':
  jobs => {
    'etc'  => { 'path' => '/etc' },
    'home' => { 'path' => '/home', 'hour' => '4', 'compress' => false },
  },
}
