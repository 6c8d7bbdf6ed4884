# A type alias named with a leading `::` is the alias itself.
define mrtest_spool (::Mrtest_types::Absolutepath $path = '/var/spool/mrtest') {
  notify { "${title} ${path}": }
}
mrtest_spool { 'a': }
mrtest_spool { 'b': path => 'C:/spool' }
notify { 'match':
  message => String('/var/x' =~ Variant[::Mrtest_types::Unixpath]),
}
