class users (
  Hash $accounts = {},
  String $shell = '/bin/sh',
) {
  $accounts.each |$name, $attrs| {
    notify { "mrtest-user-${name}": message => "uid=${attrs['uid']} groups=${attrs['groups']} shell=${shell}" }
  }
}
