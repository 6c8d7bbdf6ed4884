# Keeps each setting as a `name=value` line of one file.
Puppet::Type.type(:mrtest_mixed).provide(:lines) do
  desc 'Settings as lines of /tmp/mrtest-rbtypes/mixed.conf.'

  FILE = '/tmp/mrtest-rbtypes/mixed.conf'

  def lines
    File.exist?(FILE) ? File.readlines(FILE, chomp: true) : []
  end

  def line
    lines.find { |l| l.start_with?("#{resource[:name]}=") }
  end

  def write(all)
    File.write(FILE, all.map { |l| "#{l}\n" }.join)
  end

  # A setting given the placeholder value is wanted absent, as
  # openstack_config's provider decides while reading.
  def exists?
    resource[:ensure] = :absent if resource[:value] == '<DEFAULT>'
    !line.nil?
  end

  def create
    write(lines + ["#{resource[:name]}=#{resource[:value]}"])
  end

  def destroy
    write(lines.reject { |l| l.start_with?("#{resource[:name]}=") })
  end

  def value
    line.split('=', 2)[1]
  end

  def value=(value)
    write(lines.map { |l| l.start_with?("#{resource[:name]}=") ? "#{resource[:name]}=#{value}" : l })
  end
end
