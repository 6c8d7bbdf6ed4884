# A template that prints a Sensitive value prints it unwrapped, and its
# whole text is Sensitive (Puppet 7); interpolation keeps the redaction.
$s = Sensitive('pw')
notify { 'a': message => inline_epp('x=<%= $p %>', { 'p' => $s }) }
notify { 'b': message => "y=${s}" }
notify { 'c': message => inline_epp('<%- | Optional[Variant[String[1],Sensitive[String[1]]]] $p | -%>z=<%= $p %>', { 'p' => $s }) }
notify { 'd': message => inline_epp('<% if $p { -%>w=<%= $p %><% } -%>', { 'p' => $s }) }
