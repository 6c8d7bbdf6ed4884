class ssh (Hash $options, Array $allow_users) {
  notify { 'mrtest-ssh': message => "options=${options} allow_users=${allow_users}" }
}
