# A resource whose creation stops the run, as reboot's provider does before
# an immediate reboot (Puppet::Application.stop!): the resources after it
# are skipped.
Puppet::Type.newtype(:mrtest_stop) do
  ensurable
  newparam(:name, namevar: true)
end
