# A custom fact that resolves, whatever the others do.
Facter.add(:mrtest_fine) do
  setcode { 'fine' }
end
