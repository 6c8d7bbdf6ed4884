# A type the agents get through pluginsync: a file holding a note.
Puppet::Type.newtype(:mrtest_srv_note) do
  @doc = 'A note written to a file.'

  ensurable

  newparam(:path, namevar: true) do
    desc 'The file.'
  end

  newproperty(:text) do
    desc 'What the file says.'
  end
end
