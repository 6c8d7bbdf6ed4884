# Calls functions of every kind through the engine: one written in
# Puppet, a native one of stdlib, a core one with a lambda given as the
# caller's, and another Ruby function; and reads Sensitive values.
Puppet::Functions.create_function(:'mrtest_rb::callback') do
  dispatch :callback do
    param 'Sensitive[String]', :secret
  end

  def callback(secret)
    [
      call_function('mrtest_rb::twice', 'pp'),
      call_function('pick', nil, 'picked'),
      call_function('mrtest_rb::shout', 'ruby', 2),
      secret.unwrap.length,
      secret.to_s
    ]
  end
end
