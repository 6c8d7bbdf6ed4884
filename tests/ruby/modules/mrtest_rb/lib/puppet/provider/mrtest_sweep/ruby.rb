Puppet::Type.type(:mrtest_sweep).provide(:ruby) do
  desc 'Nothing to manage: the type generates what it removes.'
end
