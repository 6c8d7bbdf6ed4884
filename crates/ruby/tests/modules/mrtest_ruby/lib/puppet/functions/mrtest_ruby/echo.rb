# Returns what it is given, so values can be checked after a round trip.
Puppet::Functions.create_function(:'mrtest_ruby::echo') do
  def echo(*values)
    values.size == 1 ? values.first : values
  end
end
