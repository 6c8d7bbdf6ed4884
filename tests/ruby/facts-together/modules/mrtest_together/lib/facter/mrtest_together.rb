# Custom facts that resolve side by side: two whose commands take a while
# (each marks its start and end in $MRTEST_TOGETHER_LOG), one that waits
# for one of them through its confine, and two that ask for each other.
%w[a b].each do |name|
  Facter.add("mrtest_together_#{name}") do
    setcode do
      log = ENV.fetch('MRTEST_TOGETHER_LOG')
      Facter::Core::Execution.execute(
        "echo start #{name} >> #{log}; sleep 1; echo end #{name} >> #{log}; echo #{name} done; echo $LC_ALL"
      ).split("\n").join(' in ')
    end
  end
end

Facter.add(:mrtest_together_after) do
  confine mrtest_together_a: 'a done in C'
  setcode { "after #{Facter.value(:mrtest_together_a)}" }
end

Facter.add(:mrtest_circle_x) do
  setcode { "x sees #{Facter.value(:mrtest_circle_y).inspect}" }
end

Facter.add(:mrtest_circle_y) do
  setcode { "y sees #{Facter.value(:mrtest_circle_x).inspect}" }
end
