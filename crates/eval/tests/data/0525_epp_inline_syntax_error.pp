notice(inline_epp('<%= if %>'))
