# Without arguments a Timestamp is the current time.
$now = Timestamp()
notice($now =~ Timestamp)
notice($now > Timestamp('2020-01-01T00:00:00Z'))
notice(Timestamp.new() >= $now)
