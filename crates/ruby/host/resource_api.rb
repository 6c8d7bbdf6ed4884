# Puppet's Resource API, written for this host: a type registered as data
# (`Puppet::ResourceApi.register_type`) becomes a type of the host's DSL
# whose one provider, named after the type, drives the module's provider
# class (`Puppet::Provider::<Type>::<Type>`, a `SimpleProvider` or one with
# its own `set`) through `get` and `set`. The engine checks values against
# their data types and fills defaults before the host sees them; here the
# states are read, compared and written. Device transports are not
# supported.

module Puppet
  module ResourceApi
    class << self
      def register_type(definition)
        Marionette::ResourceApi.register(definition)
      end

      def register_transport(*)
        raise NotImplementedError, 'Resource API transports (remote devices) are not supported by Marionette'
      end
    end

    # What a provider learns of its type: `context.type`.
    class TypeDefinition
      attr_reader :definition

      # The features Puppet's Resource API knows; it warns of others
      # (firewall 8's `custom_generate`) when it reads the definition.
      SUPPORTED_FEATURES = %w[supports_noop canonicalize custom_insync remote_resource simple_get_filter].freeze

      def initialize(definition)
        @definition = definition
        unknown = Array(definition[:features]).map(&:to_s) - SUPPORTED_FEATURES
        Puppet.warning("Unknown feature detected: #{unknown.inspect}") unless unknown.empty?
      end

      def name
        definition[:name].to_s
      end

      def attributes
        definition[:attributes]
      end

      def namevars
        @namevars ||= begin
          named = attributes.select { |_, options| options[:behaviour] == :namevar }.keys
          named.empty? && attributes.key?(:name) ? [:name] : named
        end
      end

      def ensurable?
        attributes.key?(:ensure)
      end

      def feature?(feature)
        Array(definition[:features]).include?(feature)
      end

      def title_patterns
        definition[:title_patterns] || []
      end

      def check_schema(resource, _message_prefix = nil)
        namevars.each do |namevar|
          next unless resource[namevar].nil?

          raise Puppet::ResourceError, "`#{name}.get` did not return a value for the `#{namevar}` namevar attribute"
        end
        nil
      end
    end

    # The provider's way to log and to report progress, worded as the
    # Resource API words it.
    class Context
      attr_reader :type

      def initialize(type)
        @type = type
        @failed = false
      end

      def failed?
        @failed
      end

      def reset_failed
        @failed = false
      end

      def device
        raise 'Resource API devices are not supported by Marionette'
      end

      def transport
        raise 'No transport available.'
      end

      def feature_support?(feature)
        type.feature?(feature)
      end

      %i[debug info notice warning err].each do |level|
        define_method(level) do |*args|
          text = case args.size
                 when 1 then "#{@prefix || type.name}: #{args.last}"
                 when 2 then "#{titles(args.first)}: #{args.last}"
                 else args.map(&:to_s).join(', ')
                 end
          Marionette.log(level.to_s, text)
        end
      end

      %i[creating updating deleting].each do |step|
        define_method(step) do |names, message: step.to_s.capitalize, &block|
          timed(names, message, 'Failed after') do |seconds|
            block.call
            notice("Finished in #{seconds.call} seconds")
          end
        end
      end

      def failing(names, message: 'Failing')
        timed(names, message, 'Failed after') do |seconds|
          yield
          warning("Finished failing in #{seconds.call} seconds")
        end
      end

      def processing(name, is, should, message: 'Processing')
        raise 'processing only accepts a single resource title' if name.respond_to?(:each)

        timed(name, message, "Failed processing #{name} after") do |seconds|
          debug("Starting processing of #{name} from #{is} to #{should}")
          yield
          notice("Finished processing #{name} in #{seconds.call} seconds: #{should}")
        end
      end

      %i[created updated deleted].each do |step|
        define_method(step) do |names, message: step.to_s.capitalize|
          notice("#{message}: #{names}")
        end
      end

      def processed(name, is, should)
        notice("Processed #{name} from #{is} to #{should}")
      end

      def attribute_changed(name, attribute, is, should, message: nil)
        shown = ->(v) { v.nil? ? 'nil' : (v.is_a?(Numeric) ? v : "'#{v}'") }
        notice("#{name}: attribute '#{attribute}' changed from #{shown.call(is)} to #{shown.call(should)}#{message ? ": #{message}" : ''}")
      end

      def failed(names, message: 'Updating has failed')
        @prefix = titles(names)
        err(message)
      ensure
        @prefix = nil
      end

      def log_exception(exception, message: 'Error encountered', trace: false)
        text = "#{message}: #{exception}"
        text += "\n#{exception.backtrace.join("\n")}" if trace
        err(text)
      end

      private

      def titles(names)
        return type.name if names.respond_to?(:empty?) && names.empty? && !names.is_a?(String)

        "#{type.name}[#{[names].flatten.compact.join(', ')}]"
      end

      # Runs a step under its heading; a failure is logged and marks the
      # context failed, as the Resource API does, rather than raised.
      def timed(names, message, failure)
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        seconds = lambda do
          elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
          elapsed < 1 ? format('%.6f', elapsed) : format('%.2f', elapsed)
        end
        @prefix = "#{titles(names)}: #{message}"
        debug('Start')
        yield seconds
      rescue StandardError => e
        log_exception(e, message: "#{failure} #{seconds.call} seconds")
        @failed = true
      ensure
        @prefix = nil
      end
    end

    # Create, update and delete, one resource at a time, on top of `set`.
    class SimpleProvider
      def set(context, changes)
        raise 'SimpleProvider cannot be used with a Type that is not ensurable' unless context.type.ensurable?

        changes.each do |name, change|
          is = change.key?(:is) ? change[:is] : current(context, name)
          is ||= SimpleProvider.create_absent(:name, name)
          should = change[:should] || SimpleProvider.create_absent(:name, name)
          key = if context.type.namevars.size > 1
                  context.type.namevars.to_h { |n| [n, should[n]] }
                else
                  name
                end
          present = is[:ensure].to_s == 'present'
          if !present && should[:ensure].to_s == 'present'
            context.creating(name) { create(context, key, should) }
          elsif present && should[:ensure].to_s == 'absent'
            context.deleting(name) { delete(context, key) }
          elsif present
            context.updating(name) { update(context, key, should) }
          end
        end
      end

      def create(_context, _name, _should)
        raise "#{self.class} has not implemented `create`"
      end

      def update(_context, _name, _should)
        raise "#{self.class} has not implemented `update`"
      end

      def delete(_context, _name)
        raise "#{self.class} has not implemented `delete`"
      end

      def self.create_absent(namevar, title)
        (title.is_a?(Hash) ? title.dup : { namevar => title }).merge(ensure: 'absent')
      end

      private

      def current(context, name)
        found = context.type.feature?('simple_get_filter') ? get(context, [name]) : get(context)
        Array(found).find { |r| r[:name] == name }
      end
    end
  end
end

module Marionette
  module ResourceApi
    class << self
      # The module's type as a type of the host, with its one provider.
      def register(definition)
        definition = symbolized(definition)
        type_definition = Puppet::ResourceApi::TypeDefinition.new(definition)
        camel = class_name(type_definition.name)
        Puppet::Provider.const_set(camel, Module.new) unless Puppet::Provider.const_defined?(camel, false)
        type = Puppet::Type.newtype(type_definition.name.to_sym) do
          @doc = definition[:docs] || definition[:desc]
          definition[:attributes].each do |name, options|
            case options[:behaviour]
            when :namevar then newparam(name, parent: Marionette::ResourceApi::Parameter) { isnamevar }
            when :parameter, :read_only then newparam(name, parent: Marionette::ResourceApi::Parameter)
            else newproperty(name, parent: Marionette::ResourceApi::Property)
            end
          end
        end
        type.instance_variable_set(:@rsapi, type_definition)
        type.extend(TypeMethods)
        type.include(ResourceMethods)
        type.provide(type_definition.name.to_sym, parent: Provider)
        type
      end

      def class_name(type_name)
        type_name.to_s.split('_').map(&:capitalize).join
      end

      # A definition's keys as the Resource API reads them: symbols.
      def symbolized(value)
        case value
        when Hash then value.to_h { |k, v| [k.is_a?(String) ? k.to_sym : k, k.to_s == 'default' ? v : symbolized(v)] }
        when Array then value.map { |v| symbolized(v) }
        else value
        end
      end
    end

    module TypeMethods
      def rsapi
        @rsapi
      end

      def title_patterns
        patterns = rsapi.title_patterns
        return [[/(.*)/m, [[rsapi.namevars.first]]]] if patterns.empty?

        patterns.map do |p|
          regex = p[:pattern].is_a?(Regexp) ? p[:pattern] : Regexp.new(p[:pattern])
          [regex, regex.names.map { |n| [n.to_sym] }]
        end
      end

      def key_attributes
        rsapi.namevars
      end
    end

    module ResourceMethods
      def initialize(title, values, defaulted = [])
        values = values.transform_keys(&:to_sym)
        rsapi = self.class.rsapi
        if rsapi.feature?('canonicalize')
          values = Provider.for(self.class).implementation.canonicalize(Provider.for(self.class).context, [values]).first
        end
        super(title, values, defaulted)
      end

      # The identity the provider is given: the namevar's value, or a hash
      # of the namevars when there are several.
      def rsapi_title
        namevars = self.class.rsapi.namevars
        return (self[namevars.first] || title) if namevars.size == 1

        namevars.to_h { |n| [n, self[n]] }
      end

      # The state the manifest asks for, as the provider's `set` takes it:
      # the type's attributes in the order they were set.
      def rsapi_target
        attributes = self.class.rsapi.attributes
        @parameters.each_with_object({}) do |(name, parameter), state|
          state[name] = parameter.value if attributes.key?(name)
        end
      end

      def name
        rsapi_title.is_a?(Hash) ? title : rsapi_title
      end
    end

    # An attribute's value passes as given: the engine has checked it
    # against its data type.
    class Parameter < Puppet::Parameter
      def validate(_value); end

      def munge(value)
        value
      end
    end

    class Property < Puppet::Property
      def validate(_value); end

      def munge(value)
        value
      end

      # A value is one `should`, arrays included.
      def should=(value)
        @should = [value]
      end
      alias value= should=

      def should
        @should&.first
      end
      alias value should

      # The provider's own comparison with `custom_insync`, where it has
      # one to make; otherwise equal values, or equal texts for `ensure`.
      def insync?(is)
        return true if @should.nil?

        rsapi = resource.class.rsapi
        if rsapi.feature?('custom_insync')
          wrapper = provider
          verdict, = wrapper.class.implementation.insync?(wrapper.class.context, resource.rsapi_title, name, wrapper.current,
                                                         resource.rsapi_target)
          unless verdict.nil? || verdict == true || verdict == false
            raise Puppet::DevError, "Custom insync for #{name} returned a #{verdict.class} with a value of #{verdict.inspect} instead of true/false; insync? MUST return nil or the boolean true or false"
          end
          return verdict unless verdict.nil?
        end
        return should.to_s == is.to_s if name == :ensure

        is == should
      end
    end

    # The provider Marionette gives a Resource API type: Puppet's
    # provider interface on top of the module's `get` and `set`.
    class Provider < Puppet::Provider
      class << self
        def for(type)
          type.provider(type.rsapi.name.to_sym)
        end

        def rsapi
          resource_type.rsapi
        end

        # Made at the provider's first use in a run, from the definition
        # read again, as Puppet's Resource API makes it: a definition's
        # warnings (its unknown features) come there, in the run's log.
        def context
          @context ||= Puppet::ResourceApi::Context.new(Puppet::ResourceApi::TypeDefinition.new(rsapi.definition))
        end

        # The module's provider, made once per run.
        def implementation
          @implementation ||= begin
            camel = ResourceApi.class_name(rsapi.name)
            Puppet::Provider.const_get(camel, false).const_get(camel, false).new
          rescue NameError
            raise Puppet::DevError,
                  "provider class Puppet::Provider::#{camel}::#{camel} not found in puppet/provider/#{rsapi.name}/#{rsapi.name}"
          end
        end

        # The provider's `get`: of the names asked for, with
        # `simple_get_filter`; of everything otherwise.
        def fetch(names)
          found = if rsapi.feature?('simple_get_filter')
                    implementation.get(context, names)
                  else
                    implementation.get(context)
                  end
          Array(found).each { |state| rsapi.check_schema(state) }
        end

        def instances
          fetch([]).map do |state|
            title = state[:title] || (rsapi.namevars.size == 1 ? state[rsapi.namevars.first] : nil)
            new(state.reject { |k, _| k == :title }.merge(name: title))
          end
        end

        # One `get` for every resource of the run, each given its state.
        def prefetch(resources)
          found = fetch(resources.values.map(&:rsapi_title))
          resources.each_value do |resource|
            resource.provider.current = found.find { |state| matches?(state, resource) } || absent(resource)
          end
        end

        # Every getter and `exists?` read the state the prefetch gave the
        # resource, which other resources' changes leave as it is (as
        # Puppet's Resource API keeps each resource's current state from
        # its `get`): what is read ahead holds at the resource's turn.
        def own_reader?(_name)
          true
        end

        def matches?(state, resource)
          rsapi.namevars.all? { |n| state[n] == resource[n] }
        end

        def absent(resource)
          title = resource.rsapi_title
          state = title.is_a?(Hash) ? title.dup : { title: title }
          state[:ensure] = :absent if rsapi.ensurable?
          state
        end
      end

      attr_writer :current

      # The resource's state on the system, read on first need when no
      # prefetch gave it.
      def current
        @current ||= self.class.fetch([resource.rsapi_title]).find { |s| self.class.matches?(s, resource) } ||
                     self.class.absent(resource)
      end

      def exists?
        current[:ensure].to_s == 'present'
      end

      def create
        @changed = true
      end

      def destroy
        @changed = true
      end

      # Getters and setters of every attribute: the state read, and a
      # change to make at `flush`.
      def method_missing(name, *args)
        attr = name.to_s.delete_suffix('=').to_sym
        return super unless self.class.rsapi.attributes.key?(attr)

        if name.to_s.end_with?('=')
          @changed = true
        else
          value = current[attr]
          value.nil? ? :absent : value
        end
      end

      def respond_to_missing?(name, include_private = false)
        self.class.rsapi.attributes.key?(name.to_s.delete_suffix('=').to_sym) || super
      end

      # The whole target state in one `set`, once the engine has synced
      # every property that differed.
      def flush
        return unless @changed

        target = resource.rsapi_target
        target[:ensure] = target[:ensure].to_s if target.key?(:ensure)
        check_init_only(target) if current[:ensure].to_s == 'present' && target[:ensure].to_s == 'present'
        context = self.class.context
        changes = { resource.rsapi_title => { is: current, should: target } }
        # A provider that supports noop is told it is not in noop (a run in
        # noop never flushes); the others take no such argument.
        if self.class.rsapi.feature?('supports_noop')
          self.class.implementation.set(context, changes, noop: false)
        else
          self.class.implementation.set(context, changes)
        end
        if context.failed?
          context.reset_failed
          raise Puppet::Error, 'Execution encountered an error'
        end
        @current = target
        @changed = false
      end

      # Puppet's rule for `init_only` attributes: set when the resource is
      # made, not changed after. A change is warned of, as by Puppet's
      # `strict` setting at its default, or refused with `strict = error`.
      def check_init_only(target)
        strict = (Puppet[:strict] || 'warning').to_s
        return if strict == 'off'

        target.each do |name, value|
          options = self.class.rsapi.attributes[name]
          next unless options && options[:behaviour] == :init_only && value != current[name]

          message = "Attempting to change `#{name}` init_only attribute value from `#{current[name]}` to `#{value}`"
          raise Puppet::ResourceError, message if strict == 'error'

          Marionette.log('warning', message)
        end
      end

      def properties
        current.reject { |k, _| k == :title }.merge(name: @property_hash[:name] || resource&.name)
      end

      def initialize(value = {})
        super
        @current = @property_hash.dup unless value.is_a?(Puppet::Type)
      end
    end
  end
end
