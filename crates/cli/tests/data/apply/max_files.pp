# More entries than max_files: generating the copies fails (logged against
# the directory, which is still managed) and the rest of the run goes on,
# its dependents included.
file { '/tmp/mrtest-apply/limited':
  source    => '/tmp/mrtest-apply/five',
  recurse   => true,
  max_files => 3,
  mode      => '0700',
}
file { '/tmp/mrtest-apply/after':
  content => "after\n",
  require => File['/tmp/mrtest-apply/limited'],
}
