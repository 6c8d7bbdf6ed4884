Puppet::Type.type(:mrtest_setter).provide(:ruby) do
  desc 'Sets the parameter when the run asks whether the setter exists.'

  def exists?
    target = resource.catalog.resource(resource[:target])
    raise "mrtest_setter: #{resource[:target]} is not in the catalog" unless target.is_a?(Puppet::Type)

    target[resource[:field].to_sym] = resource[:value]
    true
  end

  def create; end

  def destroy; end
end
