# Its helper is required by a path made from this file's own, as reboot's
# linux provider requires its parent: the module path must be whole.
require File.join(File.dirname(__FILE__), '..', '..', '..', 'puppet_x', 'mrtest_rb', 'stopper')

Puppet::Type.type(:mrtest_stop).provide(:ruby) do
  def exists?
    false
  end

  def create
    PuppetX::MrtestRb::Stopper.stop(resource[:name])
  end

  def destroy; end
end
