# frozen_string_literal: true

# Puppet's core types as a module's provider for one of them expects to
# find them: swift's `swiftinit` and openstack_extras' `pacemaker` are
# written for `service`, php's `pear` and `pecl` for `package`, each
# against Puppet's own type and its base providers. The engine keeps its
# native type for such a resource (its values are checked there); what is
# defined here is what the module's provider calls and is called by: the
# parameters it reads, how each property reads and changes the thing, and
# the base providers it extends. Defined the first time a module's
# provider asks for the type.
module Marionette
  module Core
    class << self
      # The core type `name`, defined now if the host knows it; nil when it
      # does not (a module's provider for `exec` fails with that said).
      def define(name)
        builder = "define_#{name}"
        return nil unless respond_to?(builder, true)

        send(builder)
        Types.table[name]
      end

      # Whether `name` is a core type the host defines.
      def defines?(name)
        respond_to?("define_#{name}", true) && Types.table[name] && !Types.table[name].stand_in?
      end

      private

      def define_service
        Puppet::Type.newtype(:service) do
          feature :refreshable, 'The provider can restart the service.', methods: [:restart]
          feature :enableable, 'The provider can enable and disable the service.',
                  methods: %i[disable enable enabled?]
          feature :controllable, 'The provider uses a control variable.'
          feature :flaggable, 'The provider can pass flags to the service.'
          feature :maskable, 'The provider can mask the service.', methods: [:mask]
          feature :configurable_timeout, 'The provider can wait for a time given.'
          feature :manual_startable, 'The provider can set the service to start by hand.'
          feature :delayed_startable, 'The provider can delay the service at boot.'
          feature :manages_logon_credentials, 'The provider can run the service as a user.'

          newproperty(:ensure) do
            newvalue(:stopped) { provider.stop }
            newvalue(:running) { provider.start }
            aliasvalue(:false, :stopped)
            aliasvalue(:true, :running)

            # Whether it runs now is the provider's status.
            def retrieve
              provider.status
            end

            # A service started or stopped is enabled or disabled as
            # asked in the same change, as Puppet's does: the resource's
            # other properties are not looked at once `ensure` changes.
            def sync
              changed = super
              enable = @resource.property(:enable)
              enable.sync if enable && !enable.insync?(enable.retrieve)
              changed
            end
          end

          newproperty(:enable, required_features: :enableable) do
            newvalue(:true) { provider.enable }
            newvalue(:false) { provider.disable }
            newvalue(:manual) { provider.manual_start }
            newvalue(:mask) { provider.mask }
            newvalue(:delayed) { provider.delayed_start }

            def retrieve
              provider.enabled?
            end
          end

          newparam(:name, namevar: true)
          newparam(:binary)
          newparam(:hasstatus) do
            newvalues(:true, :false)
            defaultto :true
          end
          newparam(:hasrestart) { newvalues(:true, :false) }
          newparam(:path) do
            munge { |value| value.is_a?(Array) ? value : value.to_s.split(File::PATH_SEPARATOR) }
          end
          # What the base provider looks for among the processes: the
          # binary, else the name.
          newparam(:pattern) do
            defaultto { @resource[:binary] || @resource[:name] }
          end
          %i[start stop status restart control manifest timeout logonpassword].each { |name| newparam(name) }
          %i[flags logonaccount].each { |name| newproperty(name) }

          # A refresh restarts a service that runs, and leaves a stopped
          # one stopped.
          def refresh
            if provider.status == :running
              provider.restart
            else
              debug 'Skipping restart; service is not running'
            end
          end
        end
        define_service_providers
        define_engine_provider(:service, %w[start stop restart status enable disable enabled?])
      end

      # The provider the engine gives the type's resources, for module
      # code that makes a resource and drives it (rabbitmq's erlang cookie
      # stops its service with `Puppet::Type.type(:service).new(name:
      # ...).provider.stop`): the type's default here, named as the
      # engine's provider is (`systemd`), each method carried out by that
      # provider in the engine (`core_call`), which needs a run: outside
      # one a call raises. `status` and `enabled?` answer as Puppet's
      # providers do, with symbols.
      def define_engine_provider(type_name, calls)
        type = Puppet::Type.type(type_name)
        proxy = type.provide(:marionette_engine) do
          calls.each do |call|
            define_method(call) do
              values = resource.to_hash.transform_keys(&:to_s).transform_values { |v| v.is_a?(Symbol) ? v.to_s : v }
              answer = Marionette.engine.call('core_call', { 'type' => type_name.to_s, 'title' => resource.title.to_s,
                                                              'values' => Wire.encode(values), 'call' => call })
              value = Wire.decode(answer['value'])
              value.is_a?(String) ? value.to_sym : value
            rescue Marionette::EngineError => e
              raise Puppet::Error, e.message
            end
          end
        end
        proxy.define_singleton_method(:name) do
          @engine_name ||= begin
            Marionette.engine.call('core_provider', { 'type' => type_name.to_s })['text'].to_sym
          rescue Marionette::EngineError
            @provider_name
          end
        end
        type.engine_provider = proxy
      end

      # Puppet's `service` (the simplest: commands given or found) and
      # `base` (a process found by its pattern) providers, which modules'
      # providers extend by name.
      def define_service_providers
        service = Puppet::Type.type(:service)
        service.provide(:service) do
          def self.instances
            []
          end

          # A restart command given or known, else a stop and a start.
          def restart
            if @resource[:restart] || restartcmd
              ucommand(:restart)
            else
              stop
              start
            end
          end

          def restartcmd; end

          # Runs a command for `type` (start, stop...), its failure worded
          # with the resource.
          def texecute(type, command, fof = true, squelch = false, combine = true)
            execute(command, failonfail: fof, squelch: squelch, combine: combine)
          rescue Puppet::ExecutionFailure => e
            @resource.fail Puppet::Error, "Could not #{type} #{@resource.ref}: #{e}", e
          end

          # The command the resource gives for `type`, else the provider's.
          def ucommand(type, fof = true)
            given = @resource[type]
            command = given ? [given] : send("#{type}cmd")
            return nil unless command

            texecute(type, command, fof)
          end
        end

        service.provide(:base, parent: :service) do
          commands kill: 'kill'

          # The process matching the pattern, by `ps -ef`'s lines.
          def getpid
            pattern = Regexp.new(@resource[:pattern].to_s)
            execute(%w[ps -ef], failonfail: false, combine: false).each_line do |line|
              next unless line.match?(pattern)

              pid = line.split[1]
              return pid unless pid.to_i == Process.pid
            end
            nil
          end

          # The status command's exit code when there is one, else whether
          # a process matches.
          def status
            if @resource[:status] || statuscmd
              ucommand(:status, false)
              $CHILD_STATUS&.exitstatus&.zero? ? :running : :stopped
            else
              getpid ? :running : :stopped
            end
          end

          def statuscmd; end

          def start
            ucommand(:start)
          end

          # Without a start command, the binary itself.
          def startcmd
            raise Puppet::Error, 'Services must specify a start command or a binary' unless @resource[:binary]

            [@resource[:binary]]
          end

          # The stop command when there is one, else a TERM to the process.
          def stop
            return ucommand(:stop) if @resource[:stop] || stopcmd

            pid = getpid
            unless pid
              info 'is not running.'
              return false
            end
            begin
              kill pid
            rescue Puppet::ExecutionFailure
              @resource.fail Puppet::Error, "Could not kill #{name}, PID #{pid}"
            end
            true
          end

          def stopcmd; end

          # Commands that start a daemon leave its output alone.
          def texecute(type, command, fof = true, squelch = false, combine = true)
            super(type, command, fof, squelch || type == :start, combine)
          end
        end
      end

      def define_exec
        Puppet::Type.newtype(:exec) do
          # Runs the command when the checks let it: `notrun` then, else
          # the value wanted, so that a command not due is in sync.
          newproperty(:returns, array_matching: :all) do
            defaultto '0'
            munge(&:to_s)

            def retrieve
              @resource.check_all_attributes ? :notrun : should
            end

            # The command, tried `tries` times until its status is one of
            # those wanted; its output logged as `logoutput` says.
            def sync
              wanted = Array(should).map(&:to_s)
              tries = Integer(@resource[:tries] || 1)
              output = status = nil
              tries.times do |attempt|
                output, status = @resource.run(@resource[:command])
                break if wanted.include?(status.exitstatus.to_s)

                pause = Float(@resource[:try_sleep] || 0)
                sleep pause if attempt < tries - 1 && pause.positive?
              end
              failed = !wanted.include?(status.exitstatus.to_s)
              log = @resource[:logoutput].to_s
              if log == 'true' || (failed && %w[on_failure].include?(log))
                output.to_s.each_line { |line| send(@resource[:loglevel] || :notice, line.chomp) }
              end
              if failed
                raise Puppet::Error,
                      "'#{@resource[:command]}' returned #{status.exitstatus} instead of one of [#{wanted.join(',')}]"
              end
              :executed_command
            end
          end

          newparam(:command, namevar: true)
          newparam(:logoutput) do
            defaultto :on_failure
          end
          %i[path user group cwd environment timeout tries try_sleep refreshonly creates unless onlyif umask
             refresh].each { |name| newparam(name) }

          # Whether every check given lets the command run: `refreshonly`
          # only in a refresh, `creates` while none of its files exists,
          # `onlyif` when each of its commands succeeds, `unless` when
          # each fails.
          def check_all_attributes(refreshing = false)
            { refreshonly: ->(v) { refreshing || v.to_s != 'true' },
              creates: ->(v) { Array(v).none? { |path| File.exist?(path) } },
              unless: ->(v) { Array(v).all? { |command| !run(command, true).last.exitstatus.zero? } },
              onlyif: ->(v) { Array(v).all? { |command| run(command, true).last.exitstatus.zero? } } }
              .each do |check, allows|
                value = self[check]
                next if value.nil? || allows.call(value)

                debug "'#{self[:command]}' won't be executed because of failed check '#{check}'"
                return false
              end
            true
          end

          def run(command, check = false)
            provider.run(command, check)
          end

          # A refresh runs `refresh`, else the command, when the checks
          # other than `refreshonly` let it.
          def refresh
            return unless check_all_attributes(true)

            self[:refresh] ? run(self[:refresh]) : property(:returns).sync
          end
        end
        define_exec_base
      end

      # Puppet's base class of exec providers: the command run with the
      # resource's directory, user, group and environment, its output and
      # status returned, a missing command (status 127) an error.
      def define_exec_base
        return if Puppet::Provider.const_defined?(:Exec, false)

        exec = Class.new(Puppet::Provider) do
          def run(command, check = false)
            checkexe(command)
            debug "Executing#{check ? ' check' : ''} '#{command}'"
            # No `timeout`: the engine runs the command, and Ruby's Timeout
            # would leave the conversation with it midway.
            output = Puppet::Util::Execution.execute(
              command, failonfail: false, combine: true, cwd: resource[:cwd], uid: resource[:user],
                       gid: resource[:group], custom_environment: environment
            )
            raise ArgumentError, output if output.exitstatus == 127

            [output, output]
          end

          # The resource's `path` as PATH, and `environment`'s NAME=VALUE
          # words.
          def environment
            env = {}
            path = resource[:path]
            env['PATH'] = Array(path).join(File::PATH_SEPARATOR) if path
            Array(resource[:environment]).each do |word|
              name, value = word.to_s.split('=', 2)
              next warning("Cannot understand environment setting #{word.inspect}") if value.nil? || name !~ /\A\w+\z/

              env[name] = value
            end
            env
          end

          # No `checkexe`: Puppet's posix and shell providers have their
          # own, and a module's provider without one fails as in Puppet.

          def validatecmd(_command)
            true
          end

          # The program of a command line, unquoted.
          def extractexe(command)
            return command.first if command.is_a?(Array)

            word = command.to_s.strip
            quoted = word.match(/\A"([^"]+)"|\A'([^']+)'/)
            quoted ? quoted[1] || quoted[2] : word.split(' ').first
          end
        end
        Puppet::Provider.const_set(:Exec, exec)
      end

      def define_package
        Puppet::Type.newtype(:package) do
          {
            installable: [:install], uninstallable: [:uninstall], upgradeable: %i[update latest],
            purgeable: [:purge], versionable: [], holdable: %i[hold unhold], install_only: [],
            install_options: [], uninstall_options: [], disableable: [:disable], reinstallable: [:reinstall],
            package_settings: %i[package_settings_insync? package_settings package_settings=],
            virtual_packages: [], targetable: [], version_ranges: [], supports_flavors: []
          }.each { |name, methods| feature name, "The provider's #{name} feature.", methods: methods }

          ensurable do
            newvalue(:present) { provider.install }
            newvalue(:absent) { provider.uninstall }
            newvalue(:purged) { provider.purge }
            newvalue(:disabled) { provider.disable }
            aliasvalue(:installed, :present)
            newvalue(:latest) do
              provider.update
            end
            # A version: installed as the provider installs one.
            newvalue(/./) { provider.install }
            defaultto :installed

            # The provider's `properties` (its query), as a version or a
            # state.
            def retrieve
              provider.properties[:ensure]
            end

            # The version `latest` stood for when last compared.
            attr_reader :candidate

            def insync?(is)
              @should.any? { |want| wanted?(is, want) }
            end

            def wanted?(is, want)
              missing = %i[absent purged].include?(is)
              case want
              when :present then !missing && is != :disabled
              when :absent then missing
              when :purged then is == :purged
              when :latest
                # Puppet asks the provider only for an installed package.
                return false if missing

                @candidate = provider.latest
                [@candidate, :present].include?(is)
              else
                Array(is).map(&:to_s).include?(want.to_s) ||
                  (!missing && provider.respond_to?(:insync?) && provider.insync?(is) ? true : false)
              end
            end
          end

          newparam(:name, namevar: true)
          %i[source responsefile configfiles allowcdrom install_only install_options uninstall_options
             reinstall_on_refresh command adminfile allow_virtual category description instance platform
             root status vendor].each { |name| newparam(name) }
          %i[package_settings flavor mark].each { |name| newproperty(name) }
        end
        define_package_base
      end

      # Puppet's base class of package providers (`:parent =>
      # Puppet::Provider::Package`): the state comes from the provider's
      # `query`, and a prefetch hands each resource the instance of its
      # name.
      def define_package_base
        # Not `defined?`: Puppet::Util::Package, which providers include,
        # answers for the name too.
        return if Puppet::Provider.const_defined?(:Package, false)

        package = Class.new(Puppet::Provider) do
          def self.prefetch(packages)
            instances.each do |found|
              resource = packages[found.name]
              resource.provider = found if resource
            end
          end

          # What the provider's query finds, read once until a flush: a
          # package the system does not know is purged where the provider
          # can purge, else absent.
          def properties
            if @property_hash.empty?
              found = query
              @property_hash = found && !found.empty? ? found : { ensure: self.class.feature?(:purgeable) ? :purged : :absent }
            end
            @property_hash.dup
          end

          def flush
            @property_hash.clear
          end

          def validate_source(_value)
            true
          end

          # Options as the installers take them: words alone, pairs as
          # `key=value`.
          def join_options(options)
            return nil unless options

            options.flat_map do |option|
              option.is_a?(Hash) ? option.map { |key, value| "#{key}=#{value}" } : [option]
            end
          end
        end
        Puppet::Provider.const_set(:Package, package)
      end
    end
  end
end

# Modules' providers name their base class as their file loads (`parent:
# Puppet::Provider::Package`), before anything asks for the type.
Marionette::Core.send(:define_package_base)
Marionette::Core.send(:define_exec_base)
