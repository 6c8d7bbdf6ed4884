# pick and pick_default: the first value neither undef nor empty.
notice(pick(undef, '', 'a', 'b'))
notice(pick('', [], 'x'))
notice(pick(undef, false, 'x'))
notice(pick({}, 'x'))
notice(pick_default(undef, '', 'fallback'))
notice(pick_default('first', 'fallback'))
notice(pick_default(undef))
$unset = undef
notice(pick($unset, $facts['mrtest_missing'], 0))
notice(pick(undef, ''))
