# A prefetching provider of the classic interface: confines of every kind,
# a feature it has by its methods, commands, instances and prefetch over
# @property_hash, getters and setters from mk_resource_methods, and one
# flush. It cannot draw: artist, its child, can.
Puppet::Type.type(:mrtest_widget).provide(:plain) do
  desc 'Keeps widgets in plain files.'

  commands cat: 'cat'
  optional_commands frob: 'mrtest-no-such-command'
  confine kernel: %w[Linux FreeBSD]
  confine exists: '/tmp'
  confine feature: :posix
  confine true: true
  confine false: false

  mk_resource_methods

  def self.read(path)
    return nil unless File.exist?(path)

    found = { ensure: :present, path: path }
    cat(path).each_line do |line|
      key, value = line.chomp.split('=', 2)
      case key
      when 'state' then found[:ensure] = :disabled if value == 'disabled'
      when 'labels' then found[:labels] = value.split(',')
      when 'size' then found[:size] = value.to_i
      when 'color', 'shade' then found[key.to_sym] = value
      end
    end
    found
  end

  def self.instances
    Dir.glob('/tmp/mrtest-rbtypes/*.widget').sort.map { |path| new(read(path).merge(name: path)) }
  end

  def self.prefetch(resources)
    resources.each do |path, resource|
      found = read(path)
      resource.provider = new(found || { ensure: :absent, name: path }) if found
    end
  end

  def paint; end

  def state
    @property_hash[:ensure] || :absent
  end

  def exists?
    [:present, :disabled].include?(@property_hash[:ensure])
  end

  def create
    raise Puppet::Error, "mrtest_widget: cannot create #{resource[:path]}" if resource[:path].include?('fail-create')

    @property_hash[:ensure] = :present
    %i[color labels size shade].each { |p| @property_hash[p] = resource.should(p) if resource.should(p) }
  end

  def destroy
    @property_hash[:ensure] = :absent
  end

  def disable
    @property_hash[:ensure] = :disabled
  end

  def flush
    path = resource[:path]
    if @property_hash[:ensure] == :absent
      File.delete(path) if File.exist?(path)
      return
    end
    lines = ["state=#{@property_hash[:ensure] == :disabled ? 'disabled' : 'enabled'}"]
    lines << "color=#{@property_hash[:color]}" if @property_hash[:color]
    lines << "labels=#{Array(@property_hash[:labels]).join(',')}" if @property_hash[:labels]
    lines << "size=#{@property_hash[:size]}" if @property_hash[:size]
    lines << "shade=#{@property_hash[:shade]}" if @property_hash[:shade]
    File.write(path, lines.map { |l| "#{l}\n" }.join)
  end
end
