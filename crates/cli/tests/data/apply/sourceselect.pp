# sourceselect => all merges every source tree that exists; for a path in
# several, the earliest source in the list wins.
file { '/tmp/mrtest-apply/merged':
  ensure       => directory,
  source       => [
    '/tmp/mrtest-apply/missing',
    '/tmp/mrtest-apply/s1',
    '/tmp/mrtest-apply/s2',
    '/tmp/mrtest-apply/s3',
  ],
  recurse      => true,
  sourceselect => all,
}
