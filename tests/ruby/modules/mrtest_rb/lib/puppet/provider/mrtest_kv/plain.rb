# A provider with the classic interface: a command, confines, a default,
# instances and prefetch over @property_hash, getters and setters from
# mk_resource_methods, create, destroy and flush.
Puppet::Type.type(:mrtest_kv).provide(:plain) do
  desc 'Edits the file with plain Ruby.'

  commands cat: 'cat'
  confine kernel: 'Linux'
  confine exists: '/tmp'
  defaultfor kernel: 'Linux'

  mk_resource_methods

  def self.read(path)
    return {} unless File.exist?(path)

    cat(path).lines.each_with_object({}) do |line, found|
      key, value = line.chomp.split('=', 2)
      found[key] = value if key && value
    end
  end

  def self.instances
    read('/tmp/mrtest-rbtypes/kv.conf').map do |key, value|
      new(name: key, key: key, ensure: :present, value: value, path: '/tmp/mrtest-rbtypes/kv.conf')
    end
  end

  def self.prefetch(resources)
    resources.each_value do |resource|
      value = read(resource[:path])[resource[:key]]
      hash = value ? { ensure: :present, value: value } : { ensure: :absent }
      resource.provider = new(hash.merge(name: resource[:key], key: resource[:key], path: resource[:path]))
      resource.provider.resource = resource
    end
  end

  def exists?
    @property_hash[:ensure] == :present
  end

  def create
    @property_hash[:ensure] = :present
    @property_hash[:value] = resource[:value]
  end

  def destroy
    @property_hash[:ensure] = :absent
  end

  def flush
    raise Puppet::Error, "mrtest_kv: cannot write '#{@property_hash[:value]}'" if @property_hash[:value] == 'explode'

    path = resource[:path]
    found = self.class.read(path)
    if @property_hash[:ensure] == :absent
      found.delete(resource[:key])
    else
      found[resource[:key]] = @property_hash[:value]
    end
    File.write(path, found.map { |k, v| "#{k}=#{v}\n" }.join)
    notice("wrote #{path}")
  end
end
