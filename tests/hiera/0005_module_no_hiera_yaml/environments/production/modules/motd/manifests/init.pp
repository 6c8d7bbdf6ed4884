class motd (String $content = 'default from the class') {
  notify { 'mrtest-motd': message => $content }
}
