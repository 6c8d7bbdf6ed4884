node 'mrtest-nothere.example.com' {
  notify { 'mrtest-nothere': }
}
node default {
  notify { 'mrtest-default': message => "default for ${trusted['certname']}" }
}
