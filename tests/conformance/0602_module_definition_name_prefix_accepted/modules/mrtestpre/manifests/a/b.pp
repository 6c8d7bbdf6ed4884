# Puppet compares the start of the name alone: a::bc passes in a/b.pp.
class mrtestpre::a::b {
  notify { "b": }
}

define mrtestpre::a::bc () {
  notify { "bc ${title}": }
}
