Puppet::Type.newtype(:mrtest_mixed) do
  require File.expand_path(File.join(File.dirname(__FILE__), '..', '..',
                                     'puppet_x', 'mrtest_mixin', 'setting'))
  extend PuppetX::MrtestMixin::Setting

  desc 'A setting whose attributes a mixin declares.'

  declare_setting
end
