node /\.example\.com$/ {
  notify { 'mrtest-domain-node': message => "matched ${0}" }
}
