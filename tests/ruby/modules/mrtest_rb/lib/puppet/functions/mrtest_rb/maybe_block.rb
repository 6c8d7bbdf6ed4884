# Runs the block it may be given on its text.
Puppet::Functions.create_function(:'mrtest_rb::maybe_block') do
  dispatch :maybe_block do
    param 'String', :text
    optional_block_param 'Callable[1, 1]', :block
  end

  def maybe_block(text)
    block_given? ? "#{yield(text)}!" : text
  end
end
