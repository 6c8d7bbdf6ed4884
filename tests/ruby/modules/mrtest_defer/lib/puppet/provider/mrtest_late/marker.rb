Puppet::Type.type(:mrtest_late).provide(:marker) do
  desc 'Writes the file; suitable once /tmp/mrtest-rbtypes/ready exists.'

  confine exists: '/tmp/mrtest-rbtypes/ready'

  def exists?
    File.exist?(resource[:path])
  end

  def create
    File.write(resource[:path], "late\n")
  end

  def destroy
    File.delete(resource[:path])
  end
end
