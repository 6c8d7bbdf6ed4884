class ssh (
  Integer[1, 65535] $port,
  Enum['yes', 'no', 'prohibit-password'] $permit_root_login,
) {
  notify { 'mrtest-ssh': message => "${port} ${permit_root_login}" }
}
