notice(/ab+c/)
notice([/x/, /y\d/])
notice("${/foo/}")
notice(String(/a.b/))
