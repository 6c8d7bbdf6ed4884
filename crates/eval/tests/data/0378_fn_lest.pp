notice(undef.lest || { 'fallback' })
notice('value'.lest || { 'fallback' })
notice(lest(false) || { 'false is not undef' })
