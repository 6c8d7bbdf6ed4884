# A fact that leaves a mark when it is resolved, so that a test can tell
# whether a run resolved it: Marionette resolves a module's fact only when
# the code reads it.
Facter.add(:mrtest_marked) do
  setcode do
    marker = ENV['MRTEST_FACT_MARKER']
    File.write(marker, 'resolved') if marker
    'marked'
  end
end
