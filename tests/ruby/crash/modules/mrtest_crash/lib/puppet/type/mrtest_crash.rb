# A resource whose provider stops the Ruby host itself, in the way its
# `how` says, when the resource is first read: the host must be started
# again for the resources after it, with what the run had registered.
Puppet::Type.newtype(:mrtest_crash) do
  @doc = 'Crashes the Ruby host.'

  ensurable

  newparam(:name, namevar: true) do
    desc 'Any name.'
  end

  newparam(:how) do
    desc 'How the host stops: exit, abort, segv, hang or garbage.'
    newvalues(:exit, :abort, :segv, :hang, :garbage)
  end
end
