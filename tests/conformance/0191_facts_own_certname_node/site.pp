node /^mrtest-db\d+/ {
  notify { 'mrtest-db-node': message => "${trusted['certname']} ${facts['networking']['ip']} ${facts['os']['release']['major']}" }
}
node default { }
