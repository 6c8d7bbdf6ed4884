# Sets a parameter of another resource of the catalog from its provider,
# as datacat's collector gives its file the content it rendered: an
# ensurable type with nothing else to manage, whose provider does its work
# when asked whether the resource exists.
Puppet::Type.newtype(:mrtest_setter) do
  @doc = 'Sets a parameter of another resource of the run.'

  ensurable

  newparam(:name, namevar: true) do
    desc 'What is set, for the log.'
  end

  newparam(:target) do
    desc 'The resource to set, as a reference: File[/path].'
  end

  newparam(:field) do
    desc 'The parameter set.'
  end

  newparam(:value) do
    desc 'Its value.'
  end
end
