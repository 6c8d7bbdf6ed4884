# Shows the Ruby class and value of each argument, and returns them.
Puppet::Functions.create_function(:'mrtest_rb::inspect') do
  def inspect(*values)
    values.map do |v|
      shown = v.is_a?(Regexp) ? v.source : v.to_s
      kind = v.is_a?(Puppet::Pops::Types::PAnyType) ? 'Type' : v.class.name
      call_function('notice', "#{kind}: #{shown}")
    end
    values
  end
end
