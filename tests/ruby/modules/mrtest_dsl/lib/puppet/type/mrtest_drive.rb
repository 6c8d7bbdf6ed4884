# A type whose provider drives a core type's provider itself, as
# rabbitmq's erlang cookie stops its service before it wipes the
# database: it makes a `service` resource and calls the methods of the
# provider that resource gets.
Puppet::Type.newtype(:mrtest_drive) do
  @doc = 'A mark written once the service the flag file stands for is stopped.'

  ensurable do
    defaultvalues
    defaultto :present
  end

  newparam(:name, namevar: true) do
    desc 'The service.'
  end

  newparam(:flag) do
    desc 'The file whose presence says the service runs.'
  end
end
