# The default provider: plain's child (its file loads first, before its
# parent's), which declares that it draws, by default on several facts.
Puppet::Type.type(:mrtest_widget).provide(:artist, parent: :plain) do
  desc 'Keeps widgets in plain files, and draws.'

  defaultfor kernel: 'Linux', osfamily: %w[Debian RedHat]
  defaultfor osfamily: :solaris
  has_feature :draw
end
