# A provider that is never suitable here.
Puppet::Type.type(:mrtest_widget).provide(:painter) do
  desc 'Paints widgets on a system that does not exist.'

  confine true: false
  has_features :draw

  def paint; end
end
