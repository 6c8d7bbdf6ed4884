# In a double-quoted string a backslash at the end of a line joins the
# next one (modules split long exec commands so).
$y = "Y"
exec { "mrtest-e": command => "/bin/a ; \
   b ${y} ; \
  c", path => "/bin" }
notify { "mrtest-n": message => "m \
 n" }
notify { "mrtest-crlf": message => "c\
d" }
