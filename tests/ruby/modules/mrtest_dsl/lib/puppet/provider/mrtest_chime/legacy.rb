require 'pathname'
require "#{Pathname.new(__FILE__).dirname}/posix"

# The deprecated provider: it warns as it is made, which Puppet does for
# every resource before the run applies anything.
Puppet::Type.type(:mrtest_chime).provide :legacy, parent: :posix do
  desc 'The old name of the posix provider.'

  confine kernel: :linux

  def initialize(resource = nil)
    Puppet.deprecation_warning('The legacy chime provider is deprecated; use posix instead.')
    super(resource)
  end
end
