# A type whose provider's getters say when they run, for the tests of
# reading a resource's properties in one request.
Puppet::Type.newtype(:mrtest_state) do
  ensurable

  newparam(:name, namevar: true)

  newproperty(:size)

  newproperty(:color)
end
