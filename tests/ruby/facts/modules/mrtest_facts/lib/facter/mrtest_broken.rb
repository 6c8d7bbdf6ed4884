# A fact file that does not load: the other facts still resolve.
Facter.add(:mrtest_broken) do
  setcode { raise 'broken on purpose' }
end
this is not ruby
