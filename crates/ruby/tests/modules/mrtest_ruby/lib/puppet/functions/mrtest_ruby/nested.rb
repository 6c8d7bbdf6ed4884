# Calls another Ruby function through the engine while answering.
Puppet::Functions.create_function(:'mrtest_ruby::nested') do
  dispatch :nested do
    scope_param
    param 'String', :name
  end

  def nested(scope, name)
    "#{scope['greeting']}: #{call_function('mrtest_ruby::greet', name, 2)} from #{scope.source.module_name}"
  end
end
