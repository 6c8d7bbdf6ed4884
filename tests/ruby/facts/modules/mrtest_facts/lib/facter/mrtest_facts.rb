# Custom facts as modules write them: blocks, commands, confines on other
# facts, weights, and facts that read other facts.
Facter.add(:mrtest_block) do
  setcode { 'from a block' }
end

Facter.add(:mrtest_command) do
  setcode 'echo from a command'
end

Facter.add(:mrtest_confined) do
  confine kernel: 'Linux'
  setcode { "on #{Facter.value(:kernel)}" }
end

Facter.add(:mrtest_never) do
  confine kernel: 'Windows'
  setcode { 'never' }
end

Facter.add(:mrtest_weighted) do
  has_weight 10
  setcode { 'the heavier' }
end

Facter.add(:mrtest_weighted) do
  has_weight 1
  setcode { 'the lighter' }
end

Facter.add(:mrtest_fallback) do
  confine { false }
  setcode { 'not this one' }
end

Facter.add(:mrtest_fallback) do
  setcode { nil }
end

Facter.add(:mrtest_fallback) do
  has_weight 0
  setcode { 'the last that gives a value' }
end

Facter.add(:mrtest_derived) do
  setcode { "#{Facter.value(:mrtest_block)} and #{Facter.value('os.family')}" }
end

Facter.add(:mrtest_structured) do
  setcode { { 'list' => [1, 2], 'nested' => { 'ok' => true } } }
end

Facter.add(:mrtest_aggregate, type: :aggregate) do
  chunk(:first) { { 'a' => [1] } }
  chunk(:second) { { 'a' => [2], 'b' => 'two' } }
end

Facter.add(:mrtest_executed) do
  setcode { Facter::Core::Execution.execute('echo executed').strip }
end

# Facter's commands keep the agent's HOME (Puppet's own commands do not).
Facter.add(:mrtest_home) do
  setcode { Facter::Core::Execution.execute('echo "${HOME-unset}"').strip }
end
