notice(md5('hello'))
notice(sha1('hello'))
notice(sha256('hello'))
notice(md5(''))
