# A custom fact the agent gets through pluginsync.
Facter.add(:mrtest_srv_fact) do
  setcode { 'synced' }
end
