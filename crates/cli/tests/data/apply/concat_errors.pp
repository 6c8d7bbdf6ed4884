# What goes wrong with concat: a fragment whose target is not in the
# catalog (a warning), a fragment none of whose sources exist and two JSON
# fragments giving one key two values (the file is still managed, empty,
# and the error is reported).
concat_fragment { 'orphan':
  target  => '/tmp/mrtest-apply/nothere',
  content => "lost\n",
}
concat { '/tmp/mrtest-apply/nosource': }
concat::fragment { 'nosource':
  target => '/tmp/mrtest-apply/nosource',
  source => ['/tmp/mrtest-apply/none1', 'puppet:///modules/concat/none2'],
}
concat { '/tmp/mrtest-apply/dup.json': format => 'json' }
concat::fragment { 'd1': target => '/tmp/mrtest-apply/dup.json', content => '{"a": 1}' }
concat::fragment { 'd2': target => '/tmp/mrtest-apply/dup.json', content => '{"a": 2}' }
concat { '/tmp/mrtest-apply/forced.json': format => 'json', force => true }
concat::fragment { 'f1': target => '/tmp/mrtest-apply/forced.json', content => '{"a": 1}' }
concat::fragment { 'f2': target => '/tmp/mrtest-apply/forced.json', content => '{"a": 2, "b": 3}' }
notify { 'after': require => Concat['/tmp/mrtest-apply/nosource'] }
