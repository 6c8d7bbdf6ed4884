# A well-behaved resource: a file holding a line, written by its provider.
Puppet::Type.newtype(:mrtest_note) do
  @doc = 'A file holding one line.'

  ensurable

  newparam(:path, namevar: true) do
    desc 'The file.'
  end

  newproperty(:content) do
    desc 'Its line.'
  end
end
