# A custom fact whose code stops the Ruby host: it must be reported by its
# name and file, and the other facts still resolve.
Facter.add(:mrtest_exit) do
  setcode do
    warn 'mrtest: about to exit'
    exit!(7)
  end
end
