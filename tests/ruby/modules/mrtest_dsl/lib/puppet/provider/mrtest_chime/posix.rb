# Rings with a command no machine has, so that this provider is not
# suitable (its command is missing) while its child, which is not confined
# by the parent's commands, is; `command(:chime)` then finds nothing.
Puppet::Type.type(:mrtest_chime).provide :posix do
  desc 'Rings the chime with its command.'

  confine feature: :posix
  defaultfor feature: :posix

  commands chime: 'mrtest-no-such-chime'

  def file
    "/tmp/mrtest-rbtypes/#{@resource[:name]}.volume"
  end

  def volume
    File.exist?(file) ? File.read(file).strip : '0'
  end

  # As a user, when one is given: Puppet's child cannot become a user the
  # system does not know, and the command fails.
  def volume=(value)
    Puppet::Util::Execution.execute(['/bin/true'], uid: @resource[:ringer], failonfail: true) if @resource[:ringer]
    # Too loud: a command that fails, given an empty list among its
    # arguments as openstacklib gives its properties, which the failure's
    # words leave out.
    Puppet::Util::Execution.execute(['/bin/false', 'ring', value, []], failonfail: true) if value.to_i > 90
    # Rung for long: a command that outlasts the provider's own limit, as
    # corosync's wait for its cluster does; the run goes on, and the next
    # chime's command is answered.
    Timeout.timeout(1) { Puppet::Util::Execution.execute(['/bin/sleep', '3']) } if value.to_i.between?(80, 90)
    File.write(file, "#{value}\n")
  end

  def ring
    path = command(:chime)
    raise ArgumentError, 'The chime command was not found.' unless path

    Puppet::Util::Execution.execute([path])
  end
end
