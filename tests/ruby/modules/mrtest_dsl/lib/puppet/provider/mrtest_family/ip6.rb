# The IPv6 family of mrtest_family (the providers' names sort as
# firewall's do: the default comes second).
Puppet::Type.type(:mrtest_family).provide(:ip6) do
  desc 'Keeps the address in its file.'

  def path
    "/tmp/mrtest-rbtypes/family/#{resource[:name]}"
  end

  def exists?
    File.exist?(path)
  end

  def create
    Dir.mkdir(File.dirname(path)) unless File.directory?(File.dirname(path))
    File.write(path, "#{resource[:address]}\n")
  end

  def destroy
    File.delete(path)
  end

  def address
    File.read(path).chomp
  end

  def address=(value)
    File.write(path, "#{value}\n")
  end
end
