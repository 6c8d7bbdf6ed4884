# A 4.x function with several dispatchers, optional and repeated
# parameters, a block, a return type and calls back into Puppet.
Puppet::Functions.create_function(:'mrtest_rb::shout') do
  dispatch :shout_text do
    param 'String[1]', :text
    optional_param 'Integer[1, 3]', :times
    return_type 'String'
  end

  dispatch :shout_list do
    param 'Array[String]', :texts
    repeated_param 'String', :suffixes
    block_param 'Callable[1, 1]', :block
  end

  def shout_text(text, times = 1)
    ([call_function('upcase', text)] * times).join(' ')
  end

  def shout_list(texts, *suffixes)
    texts.map { |t| yield(t) + suffixes.join }
  end
end
