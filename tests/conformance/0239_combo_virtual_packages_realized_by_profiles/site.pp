include mrtestvpkgs
include profile::build
include profile::toolbox
