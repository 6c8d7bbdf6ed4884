# A base type that declares nothing, as openstacklib's openstack_config:
# loading it is no error, only using it would be.
Puppet::Type.newtype(:mrtest_empty) do
end
