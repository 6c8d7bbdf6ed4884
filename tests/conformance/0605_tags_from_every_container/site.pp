# A class contained by several defined types gets the tags of each, and
# passes them all down, as Puppet's breadth-first catalog walk does.
class inner { notify {'i':} }
class outer { contain inner }
define d { contain outer }
class {'outer':}
d { 'x': }
d { 'y': }
