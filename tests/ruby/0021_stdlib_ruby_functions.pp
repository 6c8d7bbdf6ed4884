# stdlib functions that have no native implementation run in the host.
notice(fqdn_rotate(['a', 'b', 'c', 'd']))
notice(seeded_rand(100, 'mrtest'))
notice(to_bytes('4 kB'))
notice(num2bool('1'))
notice(squeeze('aaabbbccc'))
notice(count(['a', undef, 'b']))
notice(parsejson('{"a": [1, 2]}'))
notice(swapcase('aBc'))
