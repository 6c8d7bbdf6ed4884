# A key in a key=value file, written as Puppet's docs and the seeds write
# types: ensurable, a namevar checked by a block, a munged parameter with a
# default, values restricted by newvalues, a property with its own insync?.
Puppet::Type.newtype(:mrtest_kv) do
  @doc = 'A key=value line in a file.'

  ensurable

  newparam(:key, namevar: true) do
    desc 'The key.'
    validate do |value|
      raise ArgumentError, "mrtest_kv: invalid key '#{value}'" unless value =~ /\A[a-z][a-z0-9_]*\z/
    end
  end

  newparam(:path) do
    desc 'The file.'
    defaultto '/tmp/mrtest-rbtypes/kv.conf'
  end

  newparam(:mode) do
    desc 'How values are compared.'
    newvalues(:exact, :nocase)
    defaultto :exact
  end

  newproperty(:value) do
    desc 'The value.'
    munge { |v| v.to_s.strip }

    def insync?(is)
      return is.to_s.casecmp?(should.to_s) if resource[:mode] == :nocase

      super
    end
  end

  # The file's directory is managed first when the catalog has it.
  autorequire(:file) do
    File.dirname(self[:path])
  end

  validate do
    raise ArgumentError, 'mrtest_kv: a value is required' if self[:ensure] == :present && self[:value].nil?
  end
end
