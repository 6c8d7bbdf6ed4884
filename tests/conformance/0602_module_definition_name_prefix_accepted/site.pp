include mrtestpre::a::b
mrtestpre::a::bc { "x": }
