require 'puppet/parameter/boolean'
Puppet::Type.newtype(:mrtest_entry) do
  @doc = 'An entry in a file.'
  ensurable

  def self.title_patterns
    [[/^([^:]+):(.*)$/, [[:path], [:key]]], [/(.*)/m, [[:key]]]]
  end

  newparam(:key, namevar: true) do
    desc 'The key.'
    validate { |v| raise ArgumentError, 'empty' if v.empty? }
  end

  newparam(:path, namevar: true) do
    desc 'The file.'
  end

  newproperty(:value) do
    def insync?(is)
      is == should
    end
  end

  newparam(:force, boolean: true, parent: Puppet::Parameter::Boolean)

  autorequire(:file) { [self[:path]] }
end
