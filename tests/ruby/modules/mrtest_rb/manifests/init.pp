class mrtest_rb (
  Array[String] $servers = ['a.example.com', 'b.example.com'],
  Integer $port = 123,
  Boolean $enabled = true,
) {
  notice(template('mrtest_rb/config.erb'))
  notice(mrtest_rb::wrong('caller'))
}
