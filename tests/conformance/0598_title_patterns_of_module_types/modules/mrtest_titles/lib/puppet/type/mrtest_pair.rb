# Two namevars, the patterns built by a helper and one group through a
# proc, as keystone's types build theirs.
module MrtestTitles
  def self.split_patterns(first, second)
    [
      [/^(.+)::(.+)$/, [[first, ->(x) { x.downcase }], [second]]],
      [/^(.+)$/, [[first]]],
    ]
  end
end

Puppet::Type.newtype(:mrtest_pair) do
  def self.title_patterns
    MrtestTitles.split_patterns(:name, :kind)
  end
  newparam(:name, namevar: true)
  newparam(:kind, namevar: true)
  newproperty(:value)
end
