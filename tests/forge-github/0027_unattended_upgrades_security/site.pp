# Unattended upgrades (unattended_upgrades) of Debian's security origin,
# with an automatic reboot at night, mail on errors and old packages
# removed.
class { 'unattended_upgrades':
  origins => [
    'origin=Debian,codename=${distro_codename},label=Debian-Security',
    'origin=Debian,codename=${distro_codename}-security,label=Debian-Security',
  ],
  auto    => {
    'reboot'      => true,
    'reboot_time' => '03:30',
    'remove'      => true,
    'clean'       => 7,
  },
  mail    => {
    'to'            => 'root@example.com',
    'only_on_error' => true,
  },
}
