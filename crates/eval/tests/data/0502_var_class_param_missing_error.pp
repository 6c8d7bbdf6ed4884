class needs(String $x) { notice($x) }
include needs
