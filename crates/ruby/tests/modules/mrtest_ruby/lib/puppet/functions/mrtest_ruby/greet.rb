# A 4.x function with two dispatchers, a block and calls back into the engine.
Puppet::Functions.create_function(:'mrtest_ruby::greet') do
  dispatch :greet_one do
    param 'String', :name
    optional_param 'Integer[1]', :times
    return_type 'String'
  end

  dispatch :greet_each do
    param 'Array[String]', :names
    block_param 'Callable[1,1]', :block
  end

  def greet_one(name, times = 1)
    (["hello #{call_function('upcase', name)}"] * times).join(', ')
  end

  def greet_each(names)
    names.map { |n| yield(n) }
  end
end
