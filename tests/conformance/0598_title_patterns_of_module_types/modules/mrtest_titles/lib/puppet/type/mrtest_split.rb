# One namevar; a title of two words also gives `other`.
Puppet::Type.newtype(:mrtest_split) do
  def self.title_patterns
    [[/^(\S+) (\S+)$/, [[:name], [:other]]], [/(.*)/m, [[:name]]]]
  end
  newparam(:name, namevar: true)
  newparam(:other)
end
