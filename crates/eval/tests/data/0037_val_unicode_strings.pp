notice('héllo wörld')
notice('日本'.length)
notice(upcase('straße'))
