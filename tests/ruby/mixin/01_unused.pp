# Types the module ships but the manifest does not use are no concern of
# the run: nothing is said of them.
file { '/tmp/mrtest-rbtypes': ensure => directory }
