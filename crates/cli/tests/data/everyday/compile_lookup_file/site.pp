notice('before')
$x = lookup('mrtest::nokey')
