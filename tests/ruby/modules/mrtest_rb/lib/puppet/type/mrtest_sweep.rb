# A classic type with its own `generate`: it removes the keys of
# /tmp/mrtest-rbtypes/kv.conf that start with its name and that the
# catalog does not manage, as firewallchain purges unmanaged rules.
Puppet::Type.newtype(:mrtest_sweep) do
  @doc = 'Removes the unmanaged keys with a prefix.'

  newparam(:name, namevar: true) do
    desc 'The prefix.'
  end

  def generate
    Puppet::Type.type(:mrtest_kv).instances
                .select { |found| found[:name].to_s.start_with?(self[:name]) }
                .map { |found| Puppet::Type.type(:mrtest_kv).new(name: found[:name], ensure: :absent) }
  end
end
