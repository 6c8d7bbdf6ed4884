# An entry of a sectioned file, identified by two namevars that the title
# fills through title patterns with lambdas.
Puppet::Type.newtype(:mrtest_entry) do
  @doc = 'A key in a section of /tmp/mrtest-rbtypes/entries.conf.'

  ensurable

  def self.title_patterns
    [
      [/^(.+?)::(.+)$/, [[:section, ->(x) { x.downcase }], [:key]]],
      [/^(.+)$/, [[:key]]],
    ]
  end

  newparam(:section) do
    desc 'The section.'
    isnamevar
    defaultto 'main'
  end

  newparam(:key) do
    desc 'The key.'
    isnamevar
    newvalues(/\A[a-z]+\z/)
  end

  newproperty(:value) do
    desc 'The value.'
    isrequired
  end
end
