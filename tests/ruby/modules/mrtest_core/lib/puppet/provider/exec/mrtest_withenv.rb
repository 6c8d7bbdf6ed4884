# An exec provider that runs its commands inside Puppet::Util.withenv, as
# java_ks's keytool provider does: the variables reach the command.
require 'puppet/provider/exec'

Puppet::Type.type(:exec).provide :mrtest_withenv, parent: Puppet::Provider::Exec do
  desc 'Runs commands in /bin/sh with MRTEST_WITHENV set by withenv.'

  def run(command, check = false)
    Puppet::Util.withenv('MRTEST_WITHENV' => 'from-withenv') do
      super(['/bin/sh', '-c', command], check)
    end
  end

  def checkexe(_command); end

  def validatecmd(_command)
    true
  end
end
