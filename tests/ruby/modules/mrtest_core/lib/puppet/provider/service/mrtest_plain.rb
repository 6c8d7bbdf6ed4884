# A provider that adds nothing to Puppet's `base` service provider: the
# resource's own start, status and stop commands do everything.
Puppet::Type.type(:service).provide :mrtest_plain, parent: :base do
  desc 'Runs the commands the resource gives.'
end
