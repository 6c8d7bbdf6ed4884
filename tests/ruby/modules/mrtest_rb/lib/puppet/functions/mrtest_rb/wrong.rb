# Returns a value its return type refuses, or fails.
Puppet::Functions.create_function(:'mrtest_rb::wrong') do
  dispatch :wrong do
    param 'Enum[number, raise, caller]', :how
    return_type 'String'
  end

  def wrong(how)
    case how
    when 'number' then 42
    when 'raise' then raise Puppet::ParseError, 'mrtest_rb::wrong was told to fail'
    when 'caller' then closure_scope['caller_module_name'].to_s
    end
  end
end
