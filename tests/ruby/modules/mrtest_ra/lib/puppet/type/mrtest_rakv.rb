# frozen_string_literal: true

# A type of the Resource API: keys of /tmp/mrtest-rbtypes/ra.conf, one
# line `KEY=VALUE # COMMENT` each, managed through a SimpleProvider.
require 'puppet/resource_api'

Puppet::ResourceApi.register_type(
  name: 'mrtest_rakv',
  docs: <<-EOS,
@summary A key of a scratch file, through the Resource API.

The value and comment of each key; the checksum is read-only.
  EOS
  features: ['canonicalize'],
  attributes: {
    ensure: {
      type: 'Enum[present, absent]',
      desc: 'Whether the key should be present or absent.',
      default: 'present',
    },
    name: {
      type: 'Pattern[/\A[a-z][a-z0-9_]*\z/]',
      desc: 'The key.',
      behaviour: :namevar,
    },
    value: {
      type: 'Optional[String]',
      desc: 'The value, kept in lower case.',
    },
    weight: {
      type: 'Optional[Integer[0, 100]]',
      desc: 'A number written after the value.',
    },
    enabled: {
      type: 'Boolean',
      desc: 'Whether the key is live.',
      default: true,
    },
    note: {
      type: 'Optional[String]',
      desc: 'A parameter the provider writes as a comment when it creates a key.',
      behaviour: :parameter,
    },
    checksum: {
      type: 'Optional[String]',
      desc: 'The length of the line, as the provider reads it.',
      behaviour: :read_only,
    },
  },
  autorequire: {
    file: '/tmp/mrtest-rbtypes',
  },
)
