notice(String([1, 2, 3], { Array => { format => '%a', separator => '; ' } }))
