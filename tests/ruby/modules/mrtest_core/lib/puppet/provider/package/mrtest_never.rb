# A package provider confined on a feature of the module's that never
# holds: never functional.
require 'puppet/provider/package'

Puppet::Type.type(:package).provide :mrtest_never, parent: Puppet::Provider::Package do
  desc 'Needs a tool no machine has.'

  confine feature: :mrtest_missing_tool

  def query
    nil
  end
end
