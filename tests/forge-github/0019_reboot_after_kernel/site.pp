# A reboot (puppetlabs reboot) when a kernel package changes, after the run
# finishes, with a message and a delay.
package { 'linux-image-amd64':
  ensure => installed,
  notify => Reboot['mrtest-after-kernel'],
}
reboot { 'mrtest-after-kernel':
  apply   => finished,
  message => 'Rebooting for the new kernel',
  timeout => 120,
}
