notice(inline_epp(5))
