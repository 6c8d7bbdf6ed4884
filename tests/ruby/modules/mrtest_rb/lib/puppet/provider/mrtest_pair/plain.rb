# Reads and writes the file at each call, without prefetch.
Puppet::Type.type(:mrtest_pair).provide(:plain) do
  desc 'Edits the file with plain Ruby.'

  def read
    return {} unless File.exist?(resource[:path])

    File.readlines(resource[:path], chomp: true).each_with_object({}) do |line, found|
      key, value = line.split('=', 2)
      found[key] = value if key && value
    end
  end

  def write(found)
    File.write(resource[:path], found.map { |k, v| "#{k}=#{v}\n" }.join)
  end

  def exists?
    read.key?(resource[:key])
  end

  def create
    write(read.merge(resource[:key] => resource[:value]))
  end

  def destroy
    write(read.reject { |k, _| k == resource[:key] })
  end

  def value
    read[resource[:key]]
  end

  def value=(value)
    write(read.merge(resource[:key] => value))
  end
end
