# Yields each entry of a hash to the lambda, as iteration functions do.
Puppet::Functions.create_function(:'mrtest_rb::each_pair') do
  dispatch :each_pair do
    param 'Hash', :hash
    block_param 'Callable[2, 2]', :block
  end

  def each_pair(hash)
    hash.map { |k, v| yield(k, v) }
  end
end
