# An exec provider on Puppet's base class for them, as powershell's pwsh
# is: every command, checks included, runs in /bin/sh with MRTEST_RUNNER
# set to the provider's name.
require 'puppet/provider/exec'

Puppet::Type.type(:exec).provide :mrtest_sh, parent: Puppet::Provider::Exec do
  desc 'Runs commands in /bin/sh, MRTEST_RUNNER=mrtest_sh.'

  def run(command, check = false)
    super(['/bin/sh', '-c', "MRTEST_RUNNER=mrtest_sh; export MRTEST_RUNNER; #{command}"], check)
  end

  def checkexe(_command); end

  # Any command: the shell finds its programs.
  def validatecmd(_command)
    true
  end
end
