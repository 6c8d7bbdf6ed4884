module PuppetX
  module MrtestRb
    # Asks Puppet's runtime to stop the run.
    module Stopper
      def self.stop(name)
        Puppet.notice("mrtest stopping the run for #{name}")
        Puppet::Application.stop!
      end
    end
  end
end
