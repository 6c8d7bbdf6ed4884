# `type` and `function` are plain words as hash keys and call arguments.
$h = { type => 'x', function => 'f', application => 'a' }
notice($h)
notice($h['type'])
notice(type => 'y')
