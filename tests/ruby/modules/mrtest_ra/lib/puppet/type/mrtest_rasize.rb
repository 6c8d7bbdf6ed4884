# frozen_string_literal: true

# A type of the Resource API whose provider supports noop and whose size
# may be set only when an entry is made (init_only): entries of
# /tmp/mrtest-rbtypes/sizes.conf, one line `NAME SIZE LABEL` each.
require 'puppet/resource_api'

Puppet::ResourceApi.register_type(
  name: 'mrtest_rasize',
  docs: 'An entry of a scratch file whose size is fixed when it is made.',
  features: ['supports_noop'],
  attributes: {
    ensure: {
      type: 'Enum[present, absent]',
      desc: 'Whether the entry should be present or absent.',
      default: 'present',
    },
    name: {
      type: 'String',
      desc: 'The entry.',
      behaviour: :namevar,
    },
    size: {
      type: 'Integer',
      desc: 'Set when the entry is made.',
      behaviour: :init_only,
    },
    label: {
      type: 'String',
      desc: 'May change at any time.',
    },
  },
)
