# Fails in the ways a module's Ruby can.
Puppet::Functions.create_function(:'mrtest_ruby::fail') do
  dispatch :fail do
    param 'String', :how
  end

  def fail(how)
    case how
    when 'raise' then raise Puppet::ParseError, 'mrtest failure'
    when 'crash' then exit!(7)
    when 'hang' then sleep 30
    when 'garbage'
      ObjectSpace.each_object(Marionette::Connection).first.instance_variable_get(:@output).write("garbage\n")
      sleep 30
    when 'print' then puts 'printed to stdout'; 'still fine'
    when 'object' then Object.new
    when 'engine' then call_function('nosuchfunction')
    end
  end
end
