# Drives the service through the provider its resource gets, asking its
# status before and after stopping it. The service's commands test, make
# and remove the flag file, so any service provider runs them.
Puppet::Type.type(:mrtest_drive).provide(:ruby) do
  desc 'Stops the service through its own provider, then writes the mark.'

  def service
    flag = resource[:flag]
    Puppet::Type.type(:service).new(name: resource[:name], hasstatus: true,
                                    status: "/usr/bin/test -f #{flag}",
                                    start: "/usr/bin/touch #{flag}",
                                    stop: "/bin/rm -f #{flag}")
  end

  def mark
    "#{resource[:flag]}.mark"
  end

  def exists?
    File.exist?(mark)
  end

  def create
    driven = service.provider
    Puppet.notice("#{resource[:name]} is #{driven.status}")
    driven.stop
    Puppet.notice("#{resource[:name]} is #{driven.status} after stop")
    File.write(mark, "stopped\n")
  end

  def destroy
    File.delete(mark)
  end
end
