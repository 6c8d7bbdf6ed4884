# Writes the note with plain Ruby.
Puppet::Type.type(:mrtest_srv_note).provide(:plain) do
  desc 'Writes the file.'

  def exists?
    File.exist?(resource[:path])
  end

  def create
    File.write(resource[:path], "#{resource[:text]}\n")
  end

  def destroy
    File.delete(resource[:path])
  end

  def text
    File.exist?(resource[:path]) ? File.read(resource[:path]).chomp : :absent
  end

  def text=(value)
    File.write(resource[:path], "#{value}\n")
  end
end
