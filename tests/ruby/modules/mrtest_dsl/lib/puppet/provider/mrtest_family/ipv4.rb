# The IPv4 family of mrtest_family, the default on Linux (the providers'
# names sort as firewall's do: the default comes second). Its file is
# written by a command, which its child for IPv6 runs another way.
Puppet::Type.type(:mrtest_family).provide(:ipv4) do
  desc 'Keeps the address in its file, with the family a command prints.'
  defaultfor kernel: :linux

  commands family: 'echo'

  def path
    "/tmp/mrtest-rbtypes/family/#{resource[:name]}"
  end

  def exists?
    File.exist?(path)
  end

  def create
    Dir.mkdir(File.dirname(path)) unless File.directory?(File.dirname(path))
    write(resource[:address], resource[:flags] || [])
  end

  def destroy
    File.delete(path)
  end

  def fields
    File.read(path).split
  end

  def address
    fields[1]
  end

  def address=(value)
    write(value, flags)
  end

  def flags
    fields[2].to_s.split(',')
  end

  def flags=(value)
    write(address, value)
  end

  # The line `FAMILY ADDRESS FLAGS`, FAMILY as the class's command prints
  # it (the instance's `family` is its class's).
  def write(address, flags)
    File.write(path, "#{family('inet').chomp} #{address} #{flags.join(',')}\n")
  end
end
