# frozen_string_literal: true

require 'puppet/resource_api'

# Lines of files under /tmp/mrtest-rbtypes, each with tags after a `|`:
# two namevars filled from the title, a provider with its own `set`, and
# features that filter `get` and compare tags without order.
Puppet::ResourceApi.register_type(
  name: 'mrtest_raline',
  docs: 'A line of a file, with tags.',
  features: ['simple_get_filter', 'custom_insync'],
  title_patterns: [
    {
      pattern: %r{^(?<path>/[^:]+):(?<line>.*)$},
      desc: 'A path and the line, separated by a colon.',
    },
    {
      pattern: %r{^(?<line>.*)$},
      desc: 'The line alone.',
    },
  ],
  attributes: {
    ensure: {
      type: 'Enum[present, absent]',
      desc: 'Whether the line should be there.',
      default: 'present',
    },
    path: {
      type: 'String',
      desc: 'The file.',
      behaviour: :namevar,
    },
    line: {
      type: 'String',
      desc: 'The line.',
      behaviour: :namevar,
    },
    tags: {
      type: 'Array[String]',
      desc: 'Tags, in any order.',
      default: [],
    },
  },
)
