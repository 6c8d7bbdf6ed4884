# Gives Ruby blocks to other Ruby functions, as stdlib's to_toml gives one
# to rewrap_sensitive_data: a block the callee requires, and an optional
# one, given and not; a callee that calls another with its own block.
Puppet::Functions.create_function(:'mrtest_rb::with_blocks') do
  dispatch :with_blocks do
    param 'Hash', :hash
  end

  def with_blocks(hash)
    [
      call_function('mrtest_rb::each_pair', hash) { |k, v| "#{k}=#{v}" },
      call_function('mrtest_rb::maybe_block', 'plain'),
      call_function('mrtest_rb::maybe_block', 'given') { |text| text.upcase },
      call_function('mrtest_rb::maybe_block', 'outer') do |text|
        call_function('mrtest_rb::maybe_block', text) { |inner| "<#{inner}>" }
      end
    ]
  end
end
