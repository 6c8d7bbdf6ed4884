# Things named `present*` exist, with size 3; reading a color fails.
Puppet::Type.type(:mrtest_state).provide(:fixed) do
  def exists?
    resource[:name].start_with?('present')
  end

  def size
    Puppet.notice("reading the size of #{resource[:name]}")
    '3'
  end

  def color
    raise Puppet::Error, 'no color here'
  end
end
