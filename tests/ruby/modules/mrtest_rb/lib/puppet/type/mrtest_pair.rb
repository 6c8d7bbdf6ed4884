# A key of a key=value file named by two namevars, which the title fills
# through the type's own title patterns: `PATH:KEY`, or the key alone
# with the path given.
Puppet::Type.newtype(:mrtest_pair) do
  @doc = 'A key=value line in a file, named PATH:KEY.'

  ensurable

  def self.title_patterns
    identity = lambda { |x| x }
    [
      [
        %r{\A(/[^:]+):([a-z][a-z0-9_]*)\z},
        [
          [:path, identity],
          [:key, identity],
        ],
      ],
      [/\A([a-z][a-z0-9_]*)\z/, [[:key]]],
    ]
  end

  newparam(:path, namevar: true) do
    desc 'The file.'
  end

  newparam(:key, namevar: true) do
    desc 'The key.'
  end

  newproperty(:value) do
    desc 'The value.'
  end
end
