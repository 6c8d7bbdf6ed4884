Puppet::Type.type(:mrtest_late).provide(:never) do
  desc 'Never suitable.'

  confine true: false

  def exists?
    false
  end
end
