class profile::web (Array $packages, Hash $vhosts) {
  notify { 'mrtest-web': message => "packages=${packages} vhosts=${vhosts}" }
}
