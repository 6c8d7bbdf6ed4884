# A file that only a provider suitable late can write: its provider is
# confined to a marker file that the same run may create, as a package
# installed during a run brings the command another provider needs.
Puppet::Type.newtype(:mrtest_late) do
  @doc = 'A file written once /tmp/mrtest-rbtypes/ready exists.'

  ensurable

  newparam(:path, namevar: true) do
    desc 'Where the file goes.'
  end
end
