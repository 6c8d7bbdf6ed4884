# A feature of the module's own, as nodejs's `npm` is: whether the place
# mrtest_pkg keeps its packages can be made.
require 'puppet/util/feature'

Puppet.features.add(:mrtest_pkgdb) do
  File.directory?('/tmp')
end
