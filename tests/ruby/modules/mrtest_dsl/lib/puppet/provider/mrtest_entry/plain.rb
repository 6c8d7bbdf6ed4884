# A provider without prefetch: every getter reads the file.
Puppet::Type.type(:mrtest_entry).provide(:plain) do
  desc 'Keeps entries in /tmp/mrtest-rbtypes/entries.conf.'

  FILE = '/tmp/mrtest-rbtypes/entries.conf'.freeze

  def self.entries
    return {} unless File.exist?(FILE)

    File.readlines(FILE).to_h { |l| l.chomp.split('=', 2) }
  end

  def self.instances
    entries.map do |id, value|
      section, key = id.split('.', 2)
      new(name: "#{section}::#{key}", section: section, key: key, ensure: :present, value: value)
    end
  end

  def id
    "#{resource[:section]}.#{resource[:key]}"
  end

  def write(entries)
    File.write(FILE, entries.sort.map { |k, v| "#{k}=#{v}\n" }.join)
  end

  def exists?
    self.class.entries.key?(id)
  end

  def create
    write(self.class.entries.merge(id => resource[:value]))
  end

  def destroy
    write(self.class.entries.reject { |k, _| k == id })
  end

  def value
    self.class.entries[id] || :absent
  end

  def value=(value)
    write(self.class.entries.merge(id => value))
  end
end
