# A service as the provider-development page teaches one for a core type:
# a provider of Puppet's own `service`, extending its `base` provider. The
# daemon is a flag file: it runs while /tmp/mrtest-rbtypes/NAME.running
# exists and starts at boot while NAME.enabled does; NAME.log lists what
# the provider did.
require 'fileutils'

Puppet::Type.type(:service).provide :mrtest_flag, parent: :base do
  desc 'Flag files under /tmp/mrtest-rbtypes stand for a daemon.'

  has_feature :enableable
  commands touch: 'touch'

  def flag(kind)
    FileUtils.mkdir_p('/tmp/mrtest-rbtypes')
    "/tmp/mrtest-rbtypes/#{resource[:name]}.#{kind}"
  end

  def note(action)
    File.open(flag('log'), 'a') { |f| f.puts action }
  end

  def status
    File.exist?(flag('running')) ? :running : :stopped
  end

  def start
    raise Puppet::Error, "#{resource[:name]} refuses to start" if resource[:name].end_with?('broken')

    touch flag('running')
    note 'start'
  end

  def stop
    File.delete(flag('running'))
    note 'stop'
  end

  def enabled?
    File.exist?(flag('enabled')) ? :true : :false
  end

  def enable
    touch flag('enabled')
    note 'enable'
  end

  def disable
    File.delete(flag('enabled'))
    note 'disable'
  end
end
