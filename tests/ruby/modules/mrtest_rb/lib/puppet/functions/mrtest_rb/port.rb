# Local types, an argument_mismatch handler and required repeated
# parameters.
Puppet::Functions.create_function(:'mrtest_rb::port') do
  local_types do
    type 'PortNumber = Integer[1, 65535]'
    type 'Service = Pattern[/\A[a-z]+\z/]'
  end

  dispatch :ports do
    param 'Service', :service
    required_repeated_param 'PortNumber', :ports
  end

  argument_mismatch :wrong_service do
    param 'String', :service
    repeated_param 'Any', :ports
  end

  def ports(service, *ports)
    ports.map { |p| "#{service}/#{p}" }.join(',')
  end

  def wrong_service(service, *_ports)
    "needs a lower-case service name and ports from 1 to 65535, got '#{service}'"
  end
end
