# A chime that rings when refreshed, as reboot's type reboots: its
# providers are a general one declaring the command and a deprecated
# child that warns when it is made, as reboot's `posix` and `linux` are.
Puppet::Type.newtype(:mrtest_chime) do
  @doc = 'A chime rung on refresh, its volume kept in a file.'

  newparam(:name, namevar: true) do
    desc 'The chime.'
  end

  newparam(:ringer) do
    desc 'The user the volume is set as.'
  end

  newproperty(:volume) do
    desc 'How loud it rings.'
    newvalues(%r{^\d+$})
  end

  def refresh
    provider.ring
  end
end
