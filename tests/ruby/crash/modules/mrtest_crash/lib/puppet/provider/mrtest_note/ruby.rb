Puppet::Type.type(:mrtest_note).provide(:ruby) do
  desc 'Writes the file with Ruby.'

  def exists?
    File.exist?(resource[:path])
  end

  def create
    File.write(resource[:path], "#{resource[:content]}\n")
  end

  def destroy
    File.delete(resource[:path])
  end

  def content
    File.read(resource[:path]).chomp
  end

  def content=(value)
    File.write(resource[:path], "#{value}\n")
  end
end
