notice(/a/ =~ Regexp)
notice(/a/ =~ Regexp[/a/])
notice(/b/ =~ Regexp[/a/])
