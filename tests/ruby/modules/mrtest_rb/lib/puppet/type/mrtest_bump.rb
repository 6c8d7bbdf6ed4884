# A classic type with no properties and its own `refresh`: each refresh
# adds one to a counter key of /tmp/mrtest-rbtypes/kv.conf, as a type that
# reruns a command on events (postgresql_psql's refreshonly) would act.
Puppet::Type.newtype(:mrtest_bump) do
  @doc = 'Counts the refreshes it receives.'

  newparam(:name, namevar: true) do
    desc 'The counter: key bumped_NAME.'
  end

  def refresh
    provider.bump
  end
end
