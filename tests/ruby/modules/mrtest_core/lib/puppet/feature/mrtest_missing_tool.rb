# A feature that never holds: a tool no machine has.
Puppet.features.add(:mrtest_missing_tool) do
  File.executable?('/nonexistent/mrtest-tool')
end
