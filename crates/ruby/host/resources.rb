# Applying a module's Ruby type with its Ruby providers, as the seeds write
# them: parameters validated, munged and defaulted by the type's own
# blocks, providers chosen by the engine from what they declare (commands,
# confines, defaultfor, features), then driven by the engine through
# Puppet's provider interface (prefetch, exists?, create, destroy, getters
# and setters, flush). The engine keeps the order, the events, noop and
# the report.

module Puppet
  class ExecutionFailure < Puppet::Error; end

  class Parameter
    # The values a parameter declares (`newvalue`, `newvalues`,
    # `aliasvalue`), checked and munged as Puppet's value collection does:
    # named values first (a string or symbol given matches as a symbol),
    # then patterns, which keep the value as given.
    class Value
      attr_reader :name, :options, :block, :aliases

      def initialize(name, options = {}, block = nil)
        @name = name.is_a?(Regexp) ? name : self.class.convert(name)
        @options = options
        @block = block
        @aliases = []
      end

      def self.convert(value)
        case value
        when Symbol, '' then value
        when String then value.intern
        when true then :true # rubocop:disable Lint/BooleanSymbol
        when false then :false # rubocop:disable Lint/BooleanSymbol
        else value
        end
      end

      def regex?
        @name.is_a?(Regexp)
      end

      def match?(value)
        return @name.match?(value.to_s) if regex?

        converted = self.class.convert(value)
        @name == converted || @aliases.include?(converted)
      end

    end

    class << self
      def desc(text = nil)
        @doc = text
      end
      alias doc desc

      # The blocks become methods, as in Puppet, so that `super` reaches
      # the declared values' own check and munging.
      def validate(&block)
        define_method(:unsafe_validate, &block)
      end

      def munge(&block)
        define_method(:unsafe_munge, &block)
      end

      def unmunge(&block)
        define_method(:unmunge, &block)
      end

      def defaultto(value = nil, &block)
        @default_block = block || proc { value }
      end

      def default_block
        @default_block || (superclass.respond_to?(:default_block) ? superclass.default_block : nil)
      end

      def isrequired
        @required = true
      end

      def required?
        @required == true
      end

      def values_declared
        @values_declared ||= superclass.respond_to?(:values_declared) ? superclass.values_declared.dup : []
      end

      def newvalues(*names)
        names.flatten.each { |v| newvalue(v) }
      end

      # A value, or a pattern of values, the parameter accepts; for a
      # property, a block run to sync to it.
      def newvalue(name, options = {}, &block)
        value = Value.new(name, options, block)
        values_declared.reject! { |v| v.name == value.name }
        values_declared << value
        value
      end

      def aliasvalue(name, other)
        target = value_named(other) or
          raise Puppet::DevError, "Cannot alias nonexistent value #{other}"
        target.aliases << Value.convert(name)
      end

      def value_named(name)
        converted = Value.convert(name)
        values_declared.find { |v| !v.regex? && v.name == converted }
      end

      # The declared value `value` matches: a named one, else a pattern.
      def value_matching(value)
        values_declared.reject(&:regex?).find { |v| v.match?(value) } ||
          values_declared.select(&:regex?).find { |v| v.match?(value) }
      end

      # The named values (`allowed` of earlier hosts: symbols and patterns).
      def allowed
        values_declared.map(&:name)
      end

      def array_matching(mode = nil)
        @array_matching = mode if mode
        @array_matching || (superclass.respond_to?(:array_matching) ? superclass.array_matching : :first)
      end

      attr_writer :array_matching
    end

    attr_reader :resource

    include Puppet::Util::Logging

    def initialize(resource)
      @resource = resource
    end

    def name
      self.class.parameter_name.to_sym
    end

    # Puppet's helper for `validate` blocks (`absolute_path? path`).
    def absolute_path?(path)
      Puppet::Util.absolute_path?(path)
    end

    # Where its messages come from, as Puppet says it
    # (`/Stage[main]/Main/Vcsrepo[/srv/repo]/ensure`).
    def path
      "#{@resource&.path}/#{name}"
    end

    def provider
      @resource.provider
    end

    def fail(*args)
      message = args.reject { |a| a.is_a?(Class) || a.is_a?(Exception) }.join(' ')
      raise Puppet::Error, message
    end

    def devfail(message)
      raise Puppet::DevError, message
    end

    # The declared values' check, which a `validate` block reaches with
    # `super`: Puppet's words for a value none of them takes.
    def unsafe_validate(value)
      values = self.class.values_declared
      return if values.empty? || self.class.value_matching(value)

      named = values.reject(&:regex?).map(&:name)
      patterns = values.select(&:regex?).map { |v| v.name.inspect }
      message = "Invalid value #{value.inspect}."
      message += " Valid values are #{named.join(', ')}." unless named.empty?
      message += " Valid values match #{patterns.join(', ')}." unless patterns.empty?
      raise ArgumentError, message
    end

    def validate(value)
      unsafe_validate(value)
    rescue ArgumentError => e
      raise Puppet::Error, e.message
    end

    # A named value becomes its symbol (an alias, the value it stands
    # for); a value matching a pattern stays as given.
    def unsafe_munge(value)
      found = self.class.value_matching(value)
      found && !found.regex? ? found.name : value
    end

    def munge(value)
      unsafe_munge(value)
    end

    def unmunge(value)
      value
    end

    def value=(value)
      validate(value)
      @value = munge(value)
    end

    attr_reader :value
  end

  class Property < Parameter
    class << self
      # A property's value block becomes a method, run instead of the
      # provider's setter.
      def newvalue(name, options = {}, &block)
        value = super
        if block
          method = value.regex? ? "set_#{name.source.gsub(/\W/, '_')}" : "set_#{value.name}"
          define_method(method, &block)
          value.options[:method] = method
        end
        value
      end
    end

    # Every value is checked and munged alone: a property's value is the
    # list of its desired values.
    def should=(values)
      values = [values] unless values.is_a?(Array)
      @shouldorig = values
      values.each { |v| validate(v) }
      @should = values.map { |v| munge(v) }
    end

    # Through `should=`, as in Puppet, so that a property's own `should=`
    # (firewall's `state` sorts its states) is what setting its value does.
    def value=(values)
      self.should = values
    end

    def should
      return nil if @should.nil?

      self.class.array_matching == :all ? @should : @should.first
    end

    def value
      should
    end

    def shouldorig
      @should
    end

    def retrieve
      provider.send(name)
    end

    def property_matches?(current, desired)
      current == desired || current == desired.to_s
    end

    def match_all?
      self.class.array_matching == :all
    end

    # Puppet's comparison, unless the type gives its own.
    def insync?(is)
      return true if @should.nil? || @should.empty?
      return is == @should || is == @should.map(&:to_s) if match_all?

      @should.any? { |want| property_matches?(is, want) }
    end

    # Brings the thing to the desired value, as the transaction asks a
    # property: a type may give its own (augeas's `returns` runs the
    # changes, postgresql_psql's `command` runs the SQL).
    def sync
      devfail 'Got a nil value for should' unless should
      set(should)
    end

    # Syncs to `value`: the value's block (`ensure`'s create and destroy,
    # an extra value's own), else the provider's setter.
    def set(value)
      found = self.class.value_matching(value)
      method = found&.options&.dig(:method)
      return provider.send("#{name}=", value) unless method

      begin
        send(method)
      rescue Puppet::Error
        raise
      rescue StandardError => e
        # Puppet words a value's failure that is not its own error, and
        # logs it before the failed change (the engine adds where the
        # resource was declared).
        raise ::Marionette::ValueFailed, "Could not set '#{value}' on #{name}: #{e.message}"
      end
    end

    def is_to_s(value) # rubocop:disable Naming/PredicateName
      Property.display(value)
    end

    def should_to_s(value)
      Property.display(value)
    end

    # A value as Puppet shows it in messages (its StringConverter's `%#p`):
    # words quoted, numbers bare, a hash's pairs each on a line of their
    # own, indented two spaces a level, a container within an array on a
    # new line. `level` and `first` are where the value stands, as in
    # Puppet's Indentation.
    def self.display(value, level = 0, first = true)
      pad = ->(n) { '  ' * n }
      case value
      when String, Symbol then "'#{value}'"
      when Hash
        broken = level.positive? && !first ? "\n#{pad.call(level)}" : ''
        pairs = value.map do |k, v|
          "#{pad.call(level + 1)}#{display(k, level + 1)} => #{display(v, level + 1)}"
        end
        "#{broken}{\n#{pairs.join(",\n")}\n#{pad.call(level)}}"
      when Array
        text = level.positive? && !first ? "\n#{pad.call(level)}[" : +'['
        value.each_with_index do |v, i|
          shown = display(v, level + 1, false)
          if i.positive?
            text << ', '
            if [Array, Hash].any? { |c| value[i - 1].is_a?(c) } && ![Array, Hash].any? { |c| v.is_a?(c) }
              text.rstrip! unless text.end_with?("\n")
              text << "\n#{pad.call(level + 1)}"
            end
          end
          text.rstrip! if text.end_with?(' ') && shown.start_with?("\n")
          text << shown
        end
        text << ']'
      when nil then 'undef'
      # Its pattern alone, as Puppet's string conversion shows one.
      when Regexp then value.source
      else value.to_s
      end
    end

    # Puppet's words for a change, with the property's own is_to_s and
    # should_to_s.
    def change_to_s(current, desired)
      if current == :absent
        "defined '#{name}' as #{should_to_s(desired)}"
      elsif [:absent, [:absent]].include?(desired)
        "undefined '#{name}' from #{is_to_s(current)}"
      else
        "#{name} changed #{is_to_s(current)} to #{should_to_s(desired)}"
      end
    end

    class Ensure < Property
      @doc = 'The basic property that the resource should be in.'

      # As Puppet asks: the provider, else the type itself (concat's
      # `concat_file`, which has no provider, exists when it should).
      def retrieve
        found = if provider.respond_to?(:exists?)
                  provider.exists?
                elsif @resource.respond_to?(:exists?)
                  @resource.exists?
                else
                  raise Puppet::DevError, "No ability to determine if #{@resource.class.type_name} exists"
                end
        found ? :present : :absent
      end

      def change_to_s(current, desired)
        if current == :absent || current.nil?
          'created'
        elsif desired == :absent
          'removed'
        else
          "#{name} changed #{is_to_s(current)} to #{should_to_s(desired)}"
        end
      end

      def self.defaultvalues
        newvalue(:present) do
          provider.respond_to?(:create) ? provider.create : @resource.create
          nil
        end
        newvalue(:absent) do
          provider.respond_to?(:destroy) ? provider.destroy : @resource.destroy
          nil
        end
        # Present when the resource manages any other property.
        defaultto { @resource.managed? ? :present : nil }
      end
    end
  end

  class Parameter
    # Puppet's boolean parameter: its four words, munged to true or false.
    class Boolean
      newvalues(:true, :false, :yes, :no) # rubocop:disable Lint/BooleanSymbol

      def unsafe_munge(value)
        case value
        when true, :true, 'true', :yes, 'yes' then true # rubocop:disable Lint/BooleanSymbol
        when false, :false, 'false', :no, 'no', nil, :undef, 'undef' then false # rubocop:disable Lint/BooleanSymbol
        else raise ArgumentError, "Value '#{value.inspect}':#{value.class} cannot be coerced to a boolean value"
        end
      end
    end
  end

  class Type
    class << self
      def ensurable(&block)
        parameter = add_attribute(:ensure, 'property', Puppet::Property::Ensure, {}, block)
        parameter.defaultvalues unless block
        parameter
      end

      def providers
        @providers ||= {}
      end

      def provide(name, options = {}, &block)
        parent = options[:parent]
        if parent.is_a?(Symbol) || parent.is_a?(String)
          # A sibling provider (archive's curl on its ruby) is loaded
          # first when its file comes later, as Puppet's autoloader does.
          unless providers[parent.to_sym]
            file = Marionette.module_lib_file("puppet/provider/#{type_name}/#{parent}")
            Marionette::Files.load(file) if file
          end
          parent = providers[parent.to_sym] || Puppet::Provider
        end
        klass = Class.new(parent || Puppet::Provider)
        klass.instance_variable_set(:@provider_name, name.to_sym)
        klass.instance_variable_set(:@resource_type, self)
        providers[name.to_sym] = klass
        # A base class that sets itself up per provider (ParsedFile), and
        # the provider's own settings (`default_target: '/etc/aliases'`).
        klass.initvars if klass.respond_to?(:initvars)
        options.each do |key, value|
          setter = "#{key}="
          klass.send(setter, value) if !%i[parent source].include?(key.to_sym) && klass.respond_to?(setter)
        end
        klass.class_eval(&block) if block
        klass
      end

      def provider(name)
        providers[name.to_sym]
      end

      # The provider a resource gets when it names none, as a type's own
      # blocks ask (mailalias's `target` default): the engine chooses it
      # when applying; here, the first the modules ship.
      def defaultprovider
        return @engine_provider if @engine_provider

        Marionette::Types.load_providers(type_name.to_s) if providers.empty?
        providers.values.find(&:default_here?) || providers.values.first
      end

      # Makes `provider` the type's default: the engine's own, for a core
      # type (see `Marionette::Core`).
      def engine_provider=(provider)
        @engine_provider = provider
      end

      def autorequire(type, &block)
        (@autorelations ||= []) << ['require', type.to_s, block]
      end

      # Every resource the type's providers find on the system, each with
      # the provider that found it (Puppet's `Type.instances`).
      def instances
        Marionette::Types.load_providers(type_name.to_s)
        providers.values.select { |p| p.respond_to?(:instances) }.flat_map do |provider|
          provider.instances.map do |found|
            resource = new(found.name, { key_attributes.first.to_s => found.name })
            resource.provider = found
            resource
          end
        end
      end

      def autobefore(type, &block)
        (@autorelations ||= []) << ['before', type.to_s, block]
      end

      def autonotify(type, &block)
        (@autorelations ||= []) << ['notify', type.to_s, block]
      end

      def autosubscribe(type, &block)
        (@autorelations ||= []) << ['subscribe', type.to_s, block]
      end

      def autorelations
        @autorelations || []
      end

      # The type's check of a whole resource, a method as Puppet makes it,
      # so that its block may `return` (sshkeys_core's).
      def validate(&block)
        @validate_block = block
        define_method(:validate_whole, &block)
      end

      attr_reader :validate_block

      # The provider a resource's values name (`provider`, which is not an
      # attribute: Puppet sets it before the others), as a symbol or nil,
      # and the other values.
      def split_provider(values)
        named = values['provider'].to_s
        [named.empty? ? nil : named.to_sym, values.reject { |name, _| name == 'provider' }]
      end

      def attribute(name)
        attributes.find { |a| a[:name] == name.to_s } || (stand_in? ? stand_in_attribute(name.to_s) : nil)
      end

      # An attribute of a core type's stand-in (see `stand_in?`): any is
      # taken as given, for the engine to check.
      def stand_in_attribute(name)
        parameter = Class.new(Puppet::Parameter)
        parameter.instance_variable_set(:@parameter_name, name)
        attributes << (attr = { name: name, kind: 'parameter', class: parameter, features: [] })
        attr
      end

      # Puppet's metaparameters, which a type's `generate` may pass on
      # (`Puppet::Type.metaparams.each`).
      def metaparams
        METAPARAMS
      end

      # Puppet's questions about a type's attributes, which providers ask
      # (inifile's separator: `resource.class.validattr?(:key_val_separator)`).
      METAPARAMS = %i[alias audit before consume export loglevel noop notify require schedule stage subscribe tag].freeze

      def validattr?(name)
        name = name.to_sym
        name == :name || !attribute(name).nil? || METAPARAMS.include?(name)
      end

      def validparameter?(name)
        attribute(name)&.fetch(:kind) == 'parameter'
      end

      def validproperty?(name)
        attribute(name)&.fetch(:kind) == 'property'
      end

      def validproperties
        attributes.select { |a| a[:kind] == 'property' }.map { |a| a[:name].to_sym }
      end

      def parameters
        attributes.select { |a| a[:kind] == 'parameter' }.map { |a| a[:name].to_sym }
      end

      # The attributes in the order Puppet sets a resource's (its
      # `allattrs`): the key attributes, then the properties, `ensure`
      # first (Puppet puts it ahead of those declared before it), then
      # the other parameters. A Resource API provider's `set` sees the
      # state in this order (firewall's "Creating Chain ... with {...}").
      def attributes_in_setting_order
        keys = key_attributes.map(&:to_s)
        named = keys.filter_map { |key| attributes.find { |a| a[:name] == key } }
        rest = attributes - named
        properties, others = rest.partition { |a| a[:kind] == 'property' }
        named + properties.partition { |a| a[:name] == 'ensure' }.flatten(1) + others
      end

      # `values` with what the title gives through the type's own title
      # patterns' procs (`[:section, ->(x) { x.downcase }]`): the engine
      # splits titles by the patterns alone, so a value it took from the
      # title is replaced by the proc's, and one given stays.
      def with_title_values(title, values)
        # Only a type's own patterns have procs.
        return values unless singleton_methods(false).include?(:title_patterns)

        Array(title_patterns).each do |regex, fields|
          match = regex.match(title.to_s) or next
          Array(fields).zip(match.captures).each do |(name, *procs), raw|
            procs = procs.compact
            next if procs.empty? || (values.key?(name.to_s) && values[name.to_s] != raw)

            values = values.merge(name.to_s => procs.reduce(raw) { |v, p| p.call(v) })
          end
          break
        end
        values
      rescue StandardError
        values
      end
    end

    attr_reader :title, :parameters

    # The provider given the resource (the engine's choice, a prefetch's),
    # else, as Puppet gives every resource one when it is made, a new one
    # of the type's default (a resource module code makes to drive it).
    def provider
      @provider ||= (@provider_name && self.class.provider(@provider_name) || self.class.defaultprovider)&.new(self)
    end

    # The name of the resource's provider (`resource[:provider]`), known
    # before its other attributes are set, as Puppet sets `provider` first:
    # firewall's `source` munges an address by its provider's family.
    def provider_name
      @provider_name || @provider&.class&.provider_name || self.class.defaultprovider&.provider_name
    end

    # A resource of the catalog: its attributes set as the type's blocks
    # say, defaults included, then the type's own check.
    # `new(title, values)` from the engine, or Puppet's `new(name: ...,
    # ensure: ...)` from a module's own code (a type's `generate`).
    # `defaulted` names the values that are defaults the engine filled:
    # they are set with the defaults, after every given value.
    def initialize(title, values = nil, defaulted = [])
      if values.nil? && title.is_a?(Hash)
        values = title.transform_keys(&:to_s)
        title = values.delete('title') || values[self.class.key_attributes.first.to_s] || values['name']
      end
      @title = title
      @parameters = {}
      @meta = values.transform_keys(&:to_sym).slice(*Puppet::Type.metaparams)
      values = self.class.with_title_values(title, values.transform_keys(&:to_s))
      @provider_name, values = self.class.split_provider(values)
      values.each_key { |name| self.class.attribute(name) } if self.class.stand_in?
      # As Puppet sets them: the given values in its order, then
      # the defaults of the others, each seeing those before it (ensure's
      # default asks whether any property is managed).
      missing = []
      self.class.attributes_in_setting_order.each do |attr|
        given = values.key?(attr[:name]) && !defaulted.include?(attr[:name])
        given ? assign(attr, values[attr[:name]]) : missing << attr
      end
      missing.each do |attr|
        next assign(attr, values[attr[:name]]) if values.key?(attr[:name])
        next unless attr[:class].default_block

        parameter = attr[:class].new(self)
        default = parameter.instance_exec(&attr[:class].default_block)
        # Puppet sets a default only when it is truthy: `defaultto false`
        # leaves the parameter unset (ceph_config's path, whose check
        # refuses false).
        assign(attr, default) if default
      end
      validate_whole if self.class.validate_block
    end

    def assign(attr, value)
      parameter = attr[:class].new(self)
      parameter.value = value
      @parameters[attr[:name].to_sym] = parameter
    rescue Puppet::Error, ArgumentError => e
      raise Puppet::ResourceError, "Parameter #{attr[:name]} failed on #{self}: #{e.message}"
    end
    private :assign

    # The values that identify the resource: its key attributes', in the
    # order of their names (keystone's prefetch matches resources by it).
    def uniqueness_key
      self.class.key_attributes.sort_by(&:to_s).map { |key| self[key] }
    end

    # Whether the resource manages any property (Puppet's `managed?`),
    # which makes `ensure` default to present.
    def managed?
      @parameters.any? { |name, p| name != :ensure && p.is_a?(Puppet::Property) && !p.should.nil? }
    end

    # Whether the resource only reports (its `noop`, else the run's).
    def noop?
      noop = @meta && @meta[:noop]
      return [true, 'true'].include?(noop) unless noop.nil?

      Marionette.setting('noop') == true
    rescue StandardError
      false
    end
    alias noop noop?

    # As Puppet, an attribute that needs features the provider lacks is
    # not managed, as if it were not given.
    def leave_unsupported
      self.class.attributes.each do |attr|
        next if attr[:features].empty? || attr[:features].all? { |f| provider.class.feature?(f) }

        @parameters.delete(attr[:name].to_sym)
      end
    end

    # The resource as the system has it (Puppet's `Type#to_resource`):
    # `ensure` as its property reads it, the other properties through the
    # provider, `:absent` all of them for a thing that is not there.
    def to_resource
      values = {}
      ensure_attr = self.class.attribute('ensure')
      if ensure_attr && ensure_attr[:kind] == 'property'
        state = (parameter(:ensure) || ensure_attr[:class].new(self)).retrieve
        values[:ensure] = state
      end
      self.class.attributes.each do |attr|
        next unless attr[:kind] == 'property' && attr[:name] != 'ensure'
        next unless provider.respond_to?(attr[:name])
        next unless attr[:features].all? { |f| provider.class.feature?(f) }

        values[attr[:name].to_sym] = values[:ensure] == :absent ? :absent : provider.send(attr[:name])
      end
      key = self.class.key_attributes.first
      values[key.to_sym] = self[key] if key && !self[key].nil?
      Puppet::Resource.new(self.class.type_name, title, values)
    end

    # A provider given to the resource (a prefetch's) belongs to it.
    def provider=(provider)
      @provider = provider
      provider.resource = self if provider.respond_to?(:resource=)
    end

    def [](name)
      return provider_name if name.to_s == 'provider'

      parameter = @parameters[attribute_name(name)]
      return parameter.value if parameter

      metaparam(name.to_sym)
    end

    # A metaparameter's value as Puppet's resource gives it: `loglevel`
    # is `notice` unless set (augeas logs its diff at it), a list's an
    # array.
    def metaparam(name)
      return nil unless Puppet::Type.metaparams.include?(name)

      value = @meta && @meta[name]
      case name
      when :loglevel then (value || :notice).to_sym
      when :noop then value.nil? ? nil : [true, 'true'].include?(value)
      else value
      end
    end

    def []=(name, value)
      name = attribute_name(name)
      attr = self.class.attribute(name)
      raise ArgumentError, "Invalid parameter #{name}" unless attr

      parameter = @parameters[name.to_sym] ||= attr[:class].new(self)
      parameter.value = value
    end

    # `:name` stands for the namevar of a type with one, as in Puppet.
    def attribute_name(name)
      name = name.to_sym
      keys = self.class.key_attributes
      name == :name && keys.size == 1 ? keys.first.to_sym : name
    end

    def should(name)
      parameter = @parameters[name.to_sym]
      parameter.is_a?(Puppet::Property) ? parameter.should : nil
    end

    # A parameter's value, or a property's desired one (`value(:force)`).
    def value(name)
      @parameters[attribute_name(name)]&.value
    end

    def property(name)
      parameter = @parameters[name.to_sym]
      parameter.is_a?(Puppet::Property) ? parameter : nil
    end

    def parameter(name)
      @parameters[name.to_sym]
    end

    def name
      self[:name] || @title
    end

    def to_hash
      @parameters.transform_values(&:value)
    end

    def type
      self.class.type_name.to_sym
    end

    def ref
      "#{self.class.type_name.split('::').map(&:capitalize).join('::')}[#{@title}]"
    end
    alias to_s ref

    # The containment path the engine gave (`/Stage[main]/Main/Kv[a]`),
    # where the resource's messages come from; its reference otherwise.
    attr_writer :path

    def path
      @path || ref
    end

    # A message about the resource (a method it lacks) names it, instead
    # of listing every parameter object.
    def inspect
      "#<#{self.class.type_name} #{ref}>"
    end

    # The catalog being applied, as far as the type's code may see it (a
    # `generate` reads its fragments), else the compile's.
    attr_writer :catalog

    def catalog
      @catalog || Puppet::Parser::Scope::Catalog.new
    end

    # `fail(message)`, or Puppet's `fail(ErrorClass, message, cause)`.
    def fail(*args)
      message = args.reject { |a| a.is_a?(Class) || a.is_a?(Exception) }.join(' ')
      raise Puppet::Error, message
    end

    include Puppet::Util::Logging
  end

  # What a `has_command` block says of its command.
  class CommandDefiner
    attr_reader :optional

    def initialize
      @optional = false
      @environment = {}
    end

    def is_optional # rubocop:disable Naming/PredicateName
      @optional = true
    end

    def environment(env = nil)
      @environment = @environment.merge(env) if env
      @environment
    end
  end

  # Puppet's provider: a class per provider, an instance per resource.
  class Provider
    include Puppet::Util::Logging
    # A provider class logs too (firewall's `self.instances`), and calls
    # Puppet's helpers bare (rabbitmq's `get_env`), as Puppet's do.
    extend Puppet::Util::Logging
    include Puppet::Util
    extend Puppet::Util

    class << self
      attr_reader :provider_name, :resource_type

      def name
        @provider_name
      end

      # The constant Puppet gives a provider class
      # (`Puppet::Type::Keystone_role::ProviderOpenstack`), which modules
      # match (keystone's helpers extend the classes named Provider) and
      # log under.
      def to_s
        return super unless @resource_type && @provider_name

        "Puppet::Type::#{@resource_type.type_name.to_s.capitalize}::Provider#{@provider_name.to_s.capitalize}"
      end
      alias_method :inspect, :to_s

      def desc(text = nil)
        @doc = text
      end
      alias doc desc

      def declared
        @declared ||= { 'commands' => {}, 'optional_commands' => {}, 'confines' => [], 'defaultfor' => [],
                        'features' => [] }
      end

      # Puppet sets a provider class's own declarations up here; base
      # classes of modules call it in their body (mysql's), and
      # ParsedFile has its own.
      def initvars; end

      # Each command becomes a method of the class and its instances that
      # runs it, failing on a non-zero exit as Puppet's do.
      def commands(map)
        map.each do |name, program|
          declared['commands'][name.to_s] = program.to_s
          define_command(name, program.to_s)
        end
      end

      def optional_commands(map)
        map.each do |name, program|
          declared['optional_commands'][name.to_s] = program.to_s
          define_command(name, program.to_s)
        end
      end

      # A command with its own settings (rabbitmq's `environment HOME:
      # '/tmp'`, `is_optional`); required unless optional, by this class
      # only, as Puppet's confines are (a subclass is not confined by it).
      def has_command(name, program, &block) # rubocop:disable Naming/PredicateName
        definer = CommandDefiner.new
        definer.instance_eval(&block) if block
        declared[definer.optional ? 'optional_commands' : 'commands'][name.to_s] = program.to_s
        define_command(name, program.to_s, definer.environment)
      end

      def define_command(name, program, environment = {})
        runner = proc do |*args|
          path = Puppet::Util.which(program) or raise Puppet::MissingCommand, "Command #{name} is missing"
          Puppet::Util::Execution.execute([path] + args.flatten.map(&:to_s), failonfail: true, combine: true,
                                                                             custom_environment: environment)
        end
        define_singleton_method(name, &runner)
        # The instance's command is its class's, as in Puppet: a child
        # that redefines the class method (firewall's ip6tables makes
        # `iptables` run ip6tables) redefines what its instances run.
        define_method(name) { |*args| self.class.send(name, *args) }
      end

      # The path of a declared command, or nil when it is not installed.
      # One the class does not declare is its parent's; when the parent's
      # is not installed either, Puppet reports it as undefined for this
      # class (reboot's `linux` under `posix` without `shutdown`).
      def command(name)
        program = declared['commands'][name.to_s] || declared['optional_commands'][name.to_s]
        if program.nil?
          program = superclass.command(name) if superclass.respond_to?(:command)
          raise Puppet::DevError, "No command #{name} defined for provider #{self.name}" unless program
        end
        Puppet::Util.which(program)
      end

      def confine(conditions = {}, &block)
        declared['confines'] << [conditions, block]
      end

      def defaultfor(conditions)
        declared['defaultfor'] << conditions.transform_keys(&:to_s).transform_values { |v| Array(v).map(&:to_s) }
      end

      # Whether the provider says it is the default for this machine (each
      # fact of one of its `defaultfor`s has one of the values given), as
      # Puppet prefers it among a type's providers: iptables, not
      # ip6tables, for firewall on Linux.
      def default_here?
        declared['defaultfor'].any? do |conditions|
          conditions.all? do |fact, values|
            actual = Facter.value(fact).to_s.downcase
            values.any? { |v| v.downcase == actual }
          end
        end
      rescue StandardError
        false
      end

      def has_feature(*names) # rubocop:disable Naming/PredicateName
        declared['features'].concat(names.flatten.map(&:to_s))
      end
      alias has_features has_feature

      # Whether the provider has the feature (`feature?(:bare_repositories)`).
      def feature?(name)
        features.include?(name.to_s)
      end

      # The features it declares, and those of its type whose methods it
      # has (`feature :paint, '...', methods: [:paint]`).
      def features
        declared = ancestors.select { |a| a.respond_to?(:declared) }.flat_map { |a| a.declared['features'] }
        by_methods = resource_type.respond_to?(:feature_methods) ? resource_type.feature_methods : {}
        had = by_methods.select { |_, methods| !methods.empty? && methods.all? { |m| method_defined?(m) } }.keys
        (declared + had).uniq
      end

      def satisfies?(*names)
        names.flatten.all? { |n| feature?(n) }
      end

      # Getters and setters on the property hash for every attribute.
      def mk_resource_methods
        resource_type.attributes.each do |attr|
          name = attr[:name].to_sym
          define_method(name) { @property_hash[name] || :absent } unless method_defined?(name)
          define_method("#{name}=") { |value| @property_hash[name] = value } unless method_defined?("#{name}=")
        end
        own_getters_made
      end

      # Notes the getters just made from the property hash (see
      # `own_reader?`).
      def own_getters_made
        resource_type.attributes.each do |attr|
          name = attr[:name].to_sym
          own_getters[name] ||= instance_method(name) if method_defined?(name)
        end
      end

      def own_getters
        @own_getters ||= {}
      end

      # Whether the getter of `name` reads nothing but the provider's own
      # record of its resource (`@property_hash`), which only that
      # resource's own changes touch: a getter `mk_resource_methods` made
      # and nothing redefined since, or an `exists?` in the usual words.
      # What such getters read ahead of a resource's evaluation is what
      # they would read at its time, whatever other resources change.
      def own_reader?(name)
        return own_exists? if name == :exists?

        made = ancestors.lazy.filter_map { |a| a.own_getters[name] if a.respond_to?(:own_getters) }.first
        return false unless made && method_defined?(name)

        now = instance_method(name)
        now.owner == made.owner && now.source_location == made.source_location
      end

      def own_exists?
        return @own_exists unless @own_exists.nil?

        file, line = method_defined?(:exists?) ? instance_method(:exists?).source_location : nil
        lines = file && File.file?(file) ? File.readlines(file)[line - 1, 3] : nil
        @own_exists = !lines.nil? && OWN_EXISTS.match?(lines.join)
      end
    end

    # `def exists?; @property_hash[:ensure] == :present; end`, on one line
    # or three.
    OWN_EXISTS = /\A\s*def exists\?(\(\))?\s*[;\n]\s*@property_hash\[:ensure\]\s*==\s*:present\s*[;\n]\s*end\b/

    class << self

      def execute(*args)
        Puppet::Util::Execution.execute(*args)
      end

      ENGINE_FEATURES = %w[posix root systemd].freeze

      # What the engine needs to choose a provider: the commands, and the
      # confines it can check itself; those only Ruby can (a block, a
      # `:true` or `:false` value) are checked here.
      def describe
        facts = {}
        exists = []
        features = []
        suitable = true
        declared['confines'].each do |conditions, block|
          suitable &&= block.call ? true : false if block
          conditions.each do |key, value|
            case key.to_s
            when 'exists' then exists.concat(Array(value).map(&:to_s))
            when 'feature'
              # The engine's own (posix, root, systemd) it checks itself;
              # Puppet's others are Ruby libraries (augeas, selinux),
              # which only Ruby can try.
              Array(value).map(&:to_s).each do |feature|
                if ENGINE_FEATURES.include?(feature)
                  features << feature
                else
                  suitable &&= Puppet.features.send("#{feature}?") ? true : false
                end
              end
            # Puppet's `any`: one of the values holds (swiftinit's OS
            # families).
            when 'any' then suitable &&= Array(value).any? ? true : false
            when 'true' then suitable &&= value ? true : false
            when 'false' then suitable &&= value ? false : true
            else facts[key.to_s] = Array(value).map(&:to_s)
            end
          end
        end
        {
          'name' => provider_name.to_s, 'doc' => @doc.to_s, 'commands' => declared['commands'],
          'optional_commands' => declared['optional_commands'],
          'confine' => { 'facts' => facts, 'exists' => exists, 'features' => features },
          'suitable' => suitable, 'defaultfor' => declared['defaultfor'], 'features' => self.features
        }
      end
    end

    attr_accessor :resource

    def initialize(value = {})
      if value.is_a?(Puppet::Type)
        @resource = value
        @property_hash = {}
      else
        @property_hash = value.transform_keys(&:to_sym)
      end
    end

    def name
      @resource ? @resource.name : @property_hash[:name]
    end

    def properties
      @property_hash.dup
    end

    def get(name)
      @property_hash[name.to_sym] || :absent
    end

    def set(values)
      values.each { |k, v| @property_hash[k.to_sym] = v }
    end

    def command(name)
      self.class.command(name)
    end

    def execute(*args)
      Puppet::Util::Execution.execute(*args)
    end

    def to_s
      "#{@resource}(provider=#{self.class.name})"
    end
  end

  module Util
    # Runs commands for providers as Puppet's Execution does: an argument
    # list never goes through a shell; failing on a non-zero status and
    # combining output and error are the defaults only of a call that
    # gives no options at all; `uid`/`gid` run the command as that user
    # (when running as root). The output knows its `exitstatus`, and `$?`
    # (English's `$CHILD_STATUS`) is the command's, which postgresql's
    # provider reads.
    module Execution
      class ProcessOutput < String
        attr_reader :exitstatus

        def initialize(value, exitstatus)
          super(value)
          @exitstatus = exitstatus
        end
      end

      # What Ruby's `exec` hands to a shell: a string with its syntax.
      SHELL_SYNTAX = /[*?{}\[\]<>()~&|\\$;'`"\n#]|\A\s*\w+=/.freeze

      def self.execute(command, options = nil)
        given = !options.nil?
        options ||= {}
        # One word alone is run as Ruby's `exec` runs a string: a base
        # service provider's `start => 'daemon --flag'` comes as [string].
        command = command.flatten.first.to_s if command.is_a?(Array) && command.flatten.size == 1
        argv = if command.is_a?(Array)
                 command.flatten.map(&:to_s)
               elsif command.to_s.match?(SHELL_SYNTAX)
                 ['/bin/sh', '-c', command.to_s]
               else
                 command.to_s.split
               end
        # How a failure names it, as Puppet does: the argument list
        # flattened (an empty list among the arguments, as openstacklib
        # gives its properties, adds no space), or the string as given.
        named = command.is_a?(Array) ? argv.join(' ') : command.to_s
        # `withenv`'s variables, then the command's own.
        env = (Thread.current[:marionette_withenv] || {}).compact.merge(
          (options[:custom_environment] || {}).transform_keys(&:to_s).transform_values(&:to_s)
        )
        combine = options.fetch(:combine, !given)
        output, status = if (missing = missing_program(argv.first, env))
                           # What Puppet's child says when exec fails, on
                           # its standard error.
                           [combine ? "Error: Could not execute posix command: No such file or directory - #{missing}" : '', 1]
                         elsif (refused = unknown_id(options[:uid], options[:gid]))
                           # Puppet's child cannot become the user it is
                           # given, says so on its standard error and
                           # exits 1 (postgresql_psql as `postgres` before
                           # the server's package made the account).
                           [combine ? "Error: Could not execute posix command: #{refused}\n" : '', 1]
                         else
                           stdin = options[:stdinfile] ? File.read(options[:stdinfile]) : ''
                           cwd = options[:cwd] || Dir.pwd
                           argv = as_user(options[:uid], options[:gid]) + argv
                           # A daemon a squelched command starts keeps no
                           # pipe of ours open.
                           argv = ['/bin/sh', '-c', 'exec "$@" >/dev/null 2>&1', 'sh', *argv] if options[:squelch]
                           Marionette::Commands.run(argv, env, stdin, combine, cwd)
                         end
        Marionette::Commands.child_status(status)
        if options.fetch(:failonfail, !given) && status != 0
          raise Puppet::ExecutionFailure,
                "Execution of '#{named}' returned #{status}: #{output.strip}"
        end
        ProcessOutput.new(output, status)
      end

      # The program, when it cannot be found: a path that is no executable,
      # or a name no directory of the PATH holds.
      def self.missing_program(program, env)
        return nil if program.nil?

        found = if program.include?('/')
                  File.executable?(program)
                else
                  (env['PATH'] || ENV['PATH'] || '').split(':').any? do |dir|
                    File.executable?(File.join(dir.empty? ? '.' : dir, program))
                  end
                end
        found ? nil : program
      end

      # What Puppet's child says of a user or group it cannot find, in
      # the order it changes to them (the user's own group first when no
      # group is given, then the group, then the user); nil when it finds
      # them, or changes to nobody.
      def self.unknown_id(uid, gid)
        return nil if (uid.nil? && gid.nil?) || !Process.uid.zero?

        return "Invalid user: #{uid}" if gid.nil? && !Puppet::Util.uid(uid)
        return "Invalid group: #{gid}" if gid && !Puppet::Util.gid(gid)
        return "Invalid user: #{uid}" if uid && !Puppet::Util.uid(uid)

        nil
      end

      # `setpriv` with the user's ids and groups, as Puppet changes to them
      # in the child; nothing when not root or not asked.
      def self.as_user(uid, gid)
        return [] if (uid.nil? && gid.nil?) || !Process.uid.zero?

        require 'etc'
        user = uid && (uid.to_s =~ /\A\d+\z/ ? Etc.getpwuid(uid.to_i) : Etc.getpwnam(uid.to_s))
        gid ||= user&.gid
        group = Puppet::Util.gid(gid)
        prefix = ['setpriv']
        prefix += ["--reuid=#{user.uid}", '--init-groups'] if user
        prefix + ["--regid=#{group}", '--']
      rescue ArgumentError => e
        raise Puppet::ExecutionFailure, "Could not run as #{uid || gid}: #{e.message}"
      end
    end
  end
end

module Marionette
  # Commands of providers and facts. The engine runs them while it applies
  # (it starts a process in a quarter of the time Ruby's Open3 takes, and
  # passes a Ctrl-C on to them); during a compile, which runs none for Ruby
  # code, they run here.
  module Commands
    # In the host's current directory (a provider's `Dir.chdir` block), or
    # `cwd`.
    def self.run(argv, env, stdin, combine, cwd = Dir.pwd)
      # A custom fact resolving beside others runs its command here, so
      # that their commands run at once (the engine runs one at a time);
      # in Facter's locale.
      if Thread.current[:marionette_fact_worker]
        return locally(argv, { 'LANG' => 'C', 'LC_ALL' => 'C' }.merge(env), stdin, combine, cwd)
      end

      answer = Marionette.engine.call('execute', { 'argv' => argv, 'env' => env, 'stdin' => stdin,
                                                   'combine' => combine, 'cwd' => cwd })
      raise Puppet::ExecutionFailure, answer['error'].to_s if answer['error']

      [answer['output'].to_s, answer['status']]
    rescue EngineError
      locally(argv, env, stdin, combine, cwd)
    end

    # Makes `$?` the status of a command the engine ran (Ruby sets it only
    # for a child of its own): a child that exits with that status.
    def self.child_status(status)
      # One child a status, not one a command: `$?` already says it when
      # the last command ended alike (commands mostly succeed).
      return if !status.is_a?(Integer) || $CHILD_STATUS&.exitstatus == status

      Process.wait(Process.spawn('/bin/sh', '-c', "exit #{status}"))
    end

    def self.locally(argv, env, stdin, combine, cwd)
      require 'open3'
      output, status = if combine
                         Open3.capture2e(env, *argv, stdin_data: stdin, chdir: cwd)
                       else
                         out, _err, st = Open3.capture3(env, *argv, stdin_data: stdin, chdir: cwd)
                         [out, st]
                       end
      [output, status.exitstatus]
    rescue SystemCallError => e
      raise Puppet::ExecutionFailure, "Could not execute '#{argv.join(' ')}': #{e.message}"
    end
  end

  # The catalog being applied, as a type's `generate` and `eval_generate`
  # see it: the resources of module types the engine sent (concat's
  # fragments), each made as the type's code makes it when first asked
  # for, and those generated since. Without entries, the resources the
  # host made for the run (what a provider's `prefetch` finds through
  # `resource.catalog`, as alternatives' does).
  class RunCatalog
    def initialize(entries = nil)
      @entries = entries
      @added = []
    end

    def resources
      return Apply.resources.values + others + @added if @entries.nil?

      @made ||= @entries.filter_map do |entry|
        type = Types.find(entry['type'].to_s)
        Apply.with_defaults(Apply.partial(type, entry['title'], Wire.decode(entry['values'] || {})))
      rescue StandardError
        nil
      end
      @made + @added
    end

    def add_resource(*resources)
      resources.each { |r| @added << r unless resource(r.ref) }
    end

    # `resource('File[/x]')` or `resource(:file, '/x')`; one of a type
    # the host does not run (a file) as the engine has it.
    def resource(type, title = nil)
      type, title = type.to_s.match(/\A(.+?)\[(.*)\]\z/m)&.captures || [type, title] if title.nil?
      wanted = "#{type.to_s.split('::').map(&:capitalize).join('::')}[#{title}]"
      resources.find { |r| r.ref == wanted } || engine_resource(type, title)
    end

    private

    # The run's other resources of the types the host has loaded, which
    # it has not made (a datacat collector's fragments, which manage
    # nothing themselves): made as their type's code makes them, once.
    def others
      @others ||= begin
        found = Marionette.engine.call('catalog_resources', { 'types' => Wire.encode(Types.table.keys) })
        made = Apply.resources.values.map(&:ref)
        Array(Wire.decode(found['value'])).filter_map do |type, title, values|
          resource = Apply.with_defaults(Apply.partial(Types.find(type.to_s), title, values || {}))
          made.include?(resource.ref) ? nil : resource
        rescue StandardError
          nil
        end
      rescue EngineError
        []
      end
    end

    def engine_resource(type, title)
      @engine_resources ||= {}
      key = [type.to_s.downcase, title.to_s]
      return @engine_resources[key] if @engine_resources.key?(key)

      found = Marionette.engine.call('find_resource', { 'type' => type.to_s, 'title' => title.to_s })
      @engine_resources[key] = found['found'] ? EngineResource.new(type, title, Wire.decode(found['parameters'])) : nil
    rescue EngineError
      nil
    end
  end

  # A resource of the catalog being applied of a type the host does not
  # run (a file): what the catalog says of it, and a parameter module
  # code sets on it, which the engine gives the resource before it is
  # evaluated (datacat's collector sets its file's content).
  class EngineResource < Puppet::Type
    attr_reader :title

    def initialize(type, title, values)
      @type_text = type.to_s.split('::').map(&:capitalize).join('::')
      @title = title.to_s
      @values = (values || {}).transform_keys(&:to_sym)
    end

    def [](name)
      @values[name.to_sym]
    end

    def []=(name, value)
      Marionette.engine.call('set_parameter', { 'type' => @type_text, 'title' => @title,
                                                'name' => name.to_s, 'value' => Wire.encode(value) })
      @values[name.to_sym] = value
    end

    def to_hash
      @values.dup
    end

    def name
      self[:name] || @title
    end

    def type
      @type_text.downcase.to_sym
    end

    def ref
      "#{@type_text}[#{@title}]"
    end
    alias to_s ref

    def inspect
      "#<#{ref}>"
    end
  end

  # A provider's flush failed after a change it followed.
  class FlushFailed < StandardError; end

  # A property value's block raised what is not a Puppet::Error.
  class ValueFailed < StandardError; end

  # The resources of a run, by id, with their providers.
  module Apply
    class << self
      def resources
        @resources ||= {}
      end

      def type(name)
        Types.table[name] || raise(ArgumentError, "the type '#{name}' is not loaded")
      end

      # A module's type file and its providers; without a type file, a
      # module's providers for a core type, which the host defines.
      def load(params)
        if params['type_file'].to_s.empty?
          type = Types.find(params['type'])
          if type.stand_in?
            raise ArgumentError, "Marionette's Ruby host does not define Puppet's core type " \
                                 "'#{params['type']}' for modules' providers yet"
          end
        else
          Files.load(params['type_file'])
          type = type(params['type'])
        end
        Array(params['provider_files']).each { |file| Files.load(file) }
        { 'providers' => type.providers.values.map(&:describe) }
      end

      def new_resource(params)
        type = type(params['type'])
        values = Wire.decode(params['values'] || {})
        # The engine's choice of provider, known to the type's blocks as
        # the resource is made.
        values['provider'] = params['provider'] unless params['provider'].to_s.empty?
        resource = type.new(params['title'], values, Array(params['defaulted']))
        resource.path = params['path'] if params['path']
        resource.catalog = (@catalog ||= RunCatalog.new)
        # A type without providers manages its resources itself.
        unless type.providers.empty? && params['provider'].to_s.empty?
          provider = type.provider(params['provider']) or raise ArgumentError, "no provider #{params['provider']}"
          resource.provider = provider.new(resource)
          resource.leave_unsupported
        end
        # A host started after one that stopped makes the run's resources
        # again under the ids the engine holds.
        id = params['id'] || ((@next_id || 0) + 1)
        @next_id = [@next_id || 0, id].max
        resources[id] = resource
        { 'id' => id }
      end

      # What the type's code says of the resources of a catalog before the
      # engine builds them, for each: the given values of the `checked`
      # parameters their own code refuses (each value checked alone), and
      # the defaults (`defaultto`) of the `defaults` parameters it does not
      # give, computed in order as Puppet sets them: after every given
      # value, each seeing the defaults before it.
      def check_declared(params)
        type = type(params['type'])
        checked = Array(params['checked'])
        whole = Array(params['whole'])
        defaults = Array(params['defaults'])
        list = params['resources'].map do |declared|
          values = Wire.decode(declared['values'] || {})
          refused = {}
          refused_whole = {}
          canonical = {}
          values.each do |name, value|
            if whole.include?(name)
              message = whole_refusal(type.attribute(name), value)
              refused_whole[name] = message if message
            end
            next unless checked.include?(name)

            message = refusal(type.attribute(name), value)
            refused[name] = message if message
            word = !message && canonical(type.attribute(name), value)
            canonical[name] = word if word
          end
          resource = partial(type, declared['title'], values)
          answer = { 'refused' => refused, 'defaults' => Wire.encode(defaults_of(resource, defaults)) }
          answer['refused_whole'] = refused_whole unless refused_whole.empty?
          answer['canonical'] = canonical unless canonical.empty?
          shown = shown_title(type, resource)
          answer['shown_title'] = shown if shown && shown != declared['title']
          answer
        end
        { 'resources' => list }
      end

      # The title the type's own `title` gives a resource (sshkey's
      # `HOST@TYPE`), which Puppet's messages show; nil when the type
      # keeps Puppet's.
      def shown_title(type, resource)
        return nil if type.instance_method(:title).owner == Puppet::Type

        resource.title.to_s
      rescue StandardError
        nil
      end

      # The word a property's code makes of a given word, when it is
      # another (an alias's value: mount's `present` is `defined`), as
      # Puppet's messages show it; nil when it is the same, or not a
      # word, or not a word that stays itself when given again.
      def canonical(attr, value)
        return nil unless attr && attr[:kind] == 'property' && (value.is_a?(String) || value.is_a?(Symbol))

        munged = alone(attr, value).should
        return nil unless (munged.is_a?(String) || munged.is_a?(Symbol)) && munged.to_s != value.to_s

        again = alone(attr, munged.to_s).should
        again.to_s == munged.to_s ? munged.to_s : nil
      rescue StandardError
        nil
      end

      # A parameter holding `value` alone, checked and munged as each of a
      # property's values is. Not through the type's own `should=`, which
      # sees the whole of a resource's value (cs_colocation's `primitives`
      # refuses anything but an array): `whole_refusal` asks that.
      def alone(attr, value)
        parameter = attr[:class].new(nil)
        if parameter.is_a?(Puppet::Property)
          Puppet::Property.instance_method(:should=).bind_call(parameter, value)
        else
          parameter.value = value
        end
        parameter
      end

      # A value refused by its parameter's own code, alone (`validate`, the
      # values it allows): the message, or nil.
      def refusal(attr, value)
        refused_by { attr && alone(attr, value) }
      end

      # A value refused whole by its attribute's own `should=` (or
      # `value=`), as Puppet sets a resource's value: the message, or nil.
      def whole_refusal(attr, value)
        refused_by { attr && (attr[:class].new(nil).value = value) }
      end

      # The message of the refusal the block raises, or nil.
      def refused_by
        yield
        nil
      rescue ArgumentError, Puppet::Error => e
        e.message
      rescue StandardError
        # Code that needs the resource is run when the resource is made,
        # for applying.
        nil
      end

      # The defaults of the parameters `names` that `resource` does not
      # give, each set on it as it is computed.
      def defaults_of(resource, names)
        found = {}
        resource.class.attributes.each do |attr|
          name = attr[:name]
          next unless names.include?(name) && !resource.parameters.key?(name.to_sym) && attr[:class].default_block

          parameter = attr[:class].new(resource)
          value = parameter.instance_exec(&attr[:class].default_block)
          next unless value

          found[name] = value.is_a?(Symbol) ? value.to_s : value
          parameter.value = value
          resource.parameters[name.to_sym] = parameter
        rescue StandardError
          next
        end
        found
      end

      # What the type's code says of resources the engine built: the
      # refusal of its `validate` block (when `validates`), and the titles
      # each asked automatic relationship (`[kind, target]`) gives.
      def check_built(params)
        type = type(params['type'])
        relations = Array(params['relations'])
        catalog = RunCatalog.new(Array(params['catalog'])) if params.key?('catalog')
        list = params['resources'].map do |built|
          values = Wire.decode(built['values'] || {})
          answer = {}
          if params['validates']
            refused = validation_refusal(partial(type, built['title'], values))
            answer['refused'] = refused if refused
          end
          unless relations.empty?
            resource = with_provider(with_defaults(partial(type, built['title'], values)))
            resource.catalog = catalog if catalog
            answer['relations'] = relations.map { |kind, target| related(resource, kind, target) }
          end
          answer
        end
        { 'resources' => list }
      end

      # The type's own check of a whole resource (its `validate` block):
      # the message, or nil.
      def validation_refusal(resource)
        resource.validate_whole if resource.class.validate_block
        nil
      rescue ArgumentError, Puppet::Error => e
        e.message
      end

      # The titles an `autorequire` (or `autobefore`, ...) block gives for
      # the resource.
      def related(resource, kind, target)
        titles = resource.class.autorelations
                         .select { |k, t, _| k == kind && t == target }
                         .flat_map { |_, _, block| Array(block ? resource.instance_eval(&block) : nil) }
        titles.compact.map { |t| t.respond_to?(:title) ? t.title.to_s : t.to_s }
      rescue StandardError
        []
      end

      # A resource with the values given, each set as its parameter's
      # code sets it, without defaults or checks of the whole: what the
      # type's blocks see while the resource layer builds its resource.
      def partial(type, title, values)
        values = type.with_title_values(title, values)
        resource = type.allocate
        resource.instance_variable_set(:@title, title)
        resource.instance_variable_set(:@parameters, {})
        provider_name, values = type.split_provider(values)
        resource.instance_variable_set(:@provider_name, provider_name)
        values.each do |name, value|
          attr = resource.class.attribute(name) or next
          parameter = attr[:class].new(resource)
          parameter.value = value
          resource.parameters[name.to_sym] = parameter
        rescue StandardError
          next
        end
        resource
      end

      # The resource with a provider, as Puppet's resources have one by the
      # time their auto-relationships are asked (keystone's blocks ask the
      # provider's class to name the related resources): the one it names,
      # else the type's default.
      def with_provider(resource)
        resource.provider
        resource
      rescue StandardError
        resource
      end

      # The resource with the defaults of the parameters it does not give,
      # as the type's blocks see it once made.
      def with_defaults(resource)
        defaults_of(resource, resource.class.attributes.map { |a| a[:name] } - ['ensure'])
        resource
      end

      # A property's own words for a change (`change_to_s`), for a resource
      # with these values; named values and `absent` as the symbols Puppet
      # passes.
      def change_to_s(params)
        type = type(params['type'])
        # The resource being applied, with its provider (archive's words
        # name the provider's file), else one made for the question.
        resource = resources.values.reverse_each.find { |r| r.instance_of?(type) && r.title == params['title'] } ||
                   with_defaults(partial(type, params['title'], Wire.decode(params['values'] || {})))
        property = resource.property(params['attr']) or return {}
        named = lambda do |value|
          text = value.is_a?(String) ? value : nil
          known = property.class.allowed.find { |a| a.is_a?(Symbol) && a.to_s == text }
          known || (text == 'absent' ? :absent : value)
        end
        is = named.call(Wire.decode(params['is']))
        # The desired value as the property munged it, when it has one.
        should = property.should.nil? ? named.call(Wire.decode(params['should'])) : property.should
        message = if params['noop']
                    "current_value #{property.is_to_s(is)}, should be #{property.should_to_s(should)} (noop)"
                  else
                    property.change_to_s(is, should).to_s
                  end
        { 'message' => message }
      end

      # The type's `pre_run_check` of a resource made with these values:
      # the message of the Puppet::Error it raises, or nothing.
      def pre_run_check(params)
        resource = type(params['type']).new(params['title'], Wire.decode(params['values'] || {}))
        resource.pre_run_check if resource.respond_to?(:pre_run_check)
        {}
      rescue Puppet::Error => e
        { 'refused' => e.message }
      end

      # The resources a type's `generate` adds to the run, then what its
      # `eval_generate` adds or changes of them (concat's file gets its
      # content), as type, title and values; the catalog they see holds
      # the resources of module types the engine sent (`catalog`). When
      # `eval_generate` raises, what `generate` made still stands, as in
      # Puppet, and `failed` says why.
      def generate(params)
        resource = with_defaults(partial(type(params['type']), params['title'], Wire.decode(params['values'] || {})))
        catalog = RunCatalog.new(Array(params['catalog']))
        resource.catalog = catalog
        made = resource.respond_to?(:generate) ? Array(resource.generate) : []
        made.each { |r| catalog.add_resource(r) }
        by = made.to_h { |r| [r.object_id, 'generate'] }
        answer = {}
        if resource.respond_to?(:eval_generate)
          begin
            Array(resource.eval_generate).each do |r|
              made << r unless by.key?(r.object_id)
              by[r.object_id] = by.key?(r.object_id) ? 'both' : 'eval_generate'
            end
          rescue StandardError => e
            answer['failed'] = e.message
            by.transform_values! { 'generate' }
          end
        end
        answer.merge('resources' => made.map { |r| generated(r, by[r.object_id]) })
      end

      def generated(resource, by)
        values = resource.to_hash.transform_keys(&:to_s).transform_values { |v| v.is_a?(Symbol) ? v.to_s : v }
        { 'type' => resource.class.type_name.to_s, 'title' => resource.title.to_s, 'values' => Wire.encode(values),
          'by' => by }
      end

      def prefetch(params)
        type = type(params['type'])
        provider = type.provider(params['provider'])
        return { 'prefetched' => false } unless provider.respond_to?(:prefetch)

        by_name = params['ids'].to_h { |id| [resources.fetch(id).name, resources.fetch(id)] }
        provider.prefetch(by_name)
        { 'prefetched' => true }
      end

      # A property's current value, and whether it is in sync with what
      # the resource wants (by the property's own comparison).
      def get(params)
        is, insync = read(resources.fetch(params['id']), params['attr'])
        { 'value' => Wire.encode(is.is_a?(Symbol) ? is.to_s : is), 'insync' => insync }
      end

      # The current value of an attribute of a resource, and the
      # property's own verdict on it.
      def read(resource, attr)
        # A property the resource does not manage is read all the same
        # (a service's status, for a refresh).
        property = resource.property(attr) || unmanaged(resource, attr)
        is = if property
               property.retrieve
             elsif attr == 'ensure' && resource.provider.respond_to?(:exists?)
               # A resource that does not say what it wants (`resource
               # TYPE NAME`) is still present or absent, as the provider
               # finds it.
               resource.provider.exists? ? :present : :absent
             else
               resource.provider.send(attr)
             end
        [is, property ? property.insync?(is) : false]
      end

      # A property of the resource's type that it does not manage, made
      # to be read, for a core type the host defines (a module's own type
      # is read through its provider's getter, as before).
      def unmanaged(resource, attr)
        return nil unless Core.defines?(resource.class.type_name.to_s)

        declared = resource.class.attribute(attr)
        declared && declared[:kind] == 'property' ? declared[:class].new(resource) : nil
      end

      # What `get` answers for each of several attributes of a resource,
      # in one request, read in the order given. The engine looks at
      # nothing after a managed `ensure` that is out of sync or absent
      # (it creates or removes the thing, or has nothing to manage), so
      # neither does this: the getters called are those the engine's own
      # requests would have called. A getter that raises ends the reading,
      # its error reported with the attribute's name.
      def state(params)
        resource = resources.fetch(params['id'])
        values = {}
        insync = {}
        Array(params['attrs']).each do |attr|
          begin
            is, verdict = read(resource, attr)
          rescue ProtocolError, SystemExit
            raise
          rescue Exception => e # rubocop:disable Lint/RescueException
            return { 'values' => values, 'insync' => insync, 'failed' => attr,
                     'error' => Marionette.describe_error(e) }
          end
          values[attr] = Wire.encode(is.is_a?(Symbol) ? is.to_s : is)
          insync[attr] = verdict
          break if attr == 'ensure' && settles?(resource.property(:ensure), is, verdict)
        end
        answer = { 'values' => values, 'insync' => insync, 'own' => own_reads?(resource, values.keys),
                   'wanted_ensure' => wanted_ensure(resource) }
        # The version a package's `latest` stands for, as its comparison
        # asked the provider (core.rb's package).
        candidate = resource.property(:ensure).respond_to?(:candidate) && resource.property(:ensure).candidate
        answer['candidate'] = candidate.to_s if candidate
        answer
      end

      # What the resource wants of `ensure` now: its provider may have
      # changed that while reading (openstack_config's `exists?` wants a
      # setting absent when its value is `<SERVICE DEFAULT>`).
      def wanted_ensure(resource)
        should = resource.property(:ensure)&.should
        should.nil? ? nil : should.to_s
      end

      # Whether reading these attributes of the resource reads only its
      # provider's own record of it (see `Provider.own_reader?`): the
      # properties read as Puppet's own do (no `retrieve` of the type's),
      # through such getters.
      def own_reads?(resource, attrs)
        # A type without providers reads through its own code.
        return false if resource.provider.nil?

        provider = resource.provider.class
        attrs.all? do |attr|
          property = resource.property(attr)
          # Puppet's `ensure` asks `exists?`; an `ensure` declared as a
          # plain property (a Resource API type's) reads its getter.
          if attr == 'ensure' && property&.method(:retrieve)&.owner == Puppet::Property::Ensure
            provider.own_reader?(:exists?)
          else
            (property.nil? || property.method(:retrieve).owner == Puppet::Property) &&
              provider.own_reader?(attr.to_sym)
          end
        end
      end

      # Whether a managed `ensure` read as `is` leaves the other
      # properties unread: it changes, or the thing is and stays absent.
      def settles?(property, is, verdict)
        return false unless property

        !verdict || is.nil? || is.to_s == 'absent' || property.should.to_s == 'absent'
      end

      # `state` for many resources (each `id` with its `attrs`), after
      # their prefetch. Their getters run now rather than when each is
      # evaluated, so what they log is kept with each state: the engine
      # logs it when it uses the state, and drops it with a state that a
      # change made stale.
      def states(params)
        states = Array(params['resources']).map do |wanted|
          logs = []
          state = Marionette.engine.capturing(logs) { state(wanted) }
          logs.empty? ? state : state.merge('logs' => logs)
        end
        { 'states' => states }
      end

      # Syncs a property; with `flush`, the provider's flush follows at
      # once (the resource layer flushes right after `ensure` changes).
      def set(params)
        resource = resources.fetch(params['id'])
        property = resource.property(params['attr'])
        if property
          property.sync
        else
          resource.provider.send("#{params['attr']}=", Wire.decode(params['value']))
        end
        return {} unless params['flush']

        begin
          flush(params)
        rescue StandardError => e
          # Told apart from the change's own failure: Puppet logs that
          # one's exception on its own, not a flush's.
          raise FlushFailed, e.message
        end
      end

      # Makes several resources at once: an id for each, or why it could
      # not be made.
      def new_resources(params)
        made = params['resources'].map do |r|
          new_resource(params.merge('title' => r['title'], 'values' => r['values'], 'path' => r['path'],
                                    'defaulted' => r['defaulted']))
        rescue StandardError => e
          { 'error' => e.message }
        end
        { 'resources' => made }
      end

      # The provider's flush, its messages returned to be logged after the
      # change's (Puppet logs a change as it syncs, then flushes); when it
      # fails they are sent at once, ahead of the failure.
      def flush(params)
        provider = resources.fetch(params['id']).provider
        return {} unless provider.respond_to?(:flush)

        logs = []
        begin
          Marionette.engine.capturing(logs) { provider.flush }
        rescue StandardError
          logs.each { |log| Marionette.engine.log(log['level'], log['message'], log['source']) }
          raise
        end
        logs.empty? ? {} : { 'logs' => logs }
      end

      # A resource that received events refreshes itself, by its type's
      # own `refresh` (a command run again, a service restarted).
      def refresh(params)
        resource = resources.fetch(params['id'])
        resource.refresh if resource.respond_to?(:refresh)
        {}
      end

      def instances(params)
        provider = type(params['type']).provider(params['provider'])
        unless provider.respond_to?(:instances)
          # Puppet's own words for a provider that cannot list.
          raise Puppet::DevError,
                "To support listing resources of this type the '#{provider.name}' provider needs to implement " \
                "an 'instances' class method returning the current set of resources. We recommend porting your " \
                'module to the simpler Resource API instead: https://puppet.com/search/docs?keys=resource+api'
        end

        type = type(params['type'])
        { 'instances' => provider.instances.map { |p| Wire.encode(listed(type, p)) } }
      end

      # What `puppet resource` shows of an instance, as Puppet retrieves
      # every property of each: its property hash, then what each property
      # the provider has the features of reads through its getter, the
      # instance given a resource of its own (getters read
      # `@resource.value(:name)`).
      def listed(type, instance)
        found = instance.properties.transform_keys(&:to_s)
        begin
          key = type.key_attributes.first.to_s
          name = found[key] || found['name'] || instance.name
          type.new(name.to_s, { key => name.to_s }).provider = instance
          type.attributes.each do |attr|
            next unless attr[:kind] == 'property' && attr[:name] != 'ensure' && instance.respond_to?(attr[:name])
            next unless attr[:features].all? { |f| instance.class.feature?(f) }

            value = instance.send(attr[:name])
            found[attr[:name]] = value unless value.nil? || value == :absent
          rescue StandardError
            next
          end
        rescue StandardError
          # An instance the type's own code refuses is shown as found.
          nil
        end
        found.transform_values { |v| v.is_a?(Symbol) ? v.to_s : v }
      end
    end
  end
end

module Puppet
  # A resource as Puppet's RAL finds it on the system (`puppet resource
  # TYPE TITLE`): its type, title and current values. Modules' providers
  # read other resources through it (keystone's default domain, from
  # `Puppet::Resource.indirection.find('Keystone_config/identity/...')`).
  class Resource
    attr_reader :type, :title

    def initialize(type, title, values = {})
      @type = type.to_s.split('::').map(&:capitalize).join('::')
      @title = title
      @values = values.transform_keys(&:to_sym)
    end

    def [](name)
      @values[name.to_sym]
    end

    def []=(name, value)
      @values[name.to_sym] = value
    end

    def to_hash
      @values.dup
    end

    def ref
      "#{@type}[#{@title}]"
    end
    alias to_s ref

    def self.indirection
      Ral
    end

    REFERENCE = /\A([^\[\]]+)\[(.+)\]\z/m.freeze

    # A reference's type and title, as Puppet names a resource: "Type[title]"
    # in either argument, the type capitalized segment by segment, and a
    # class's title too (an empty one is main). stdlib's str2resource and
    # defined_with_params parse references so.
    def self.type_and_title(type, title)
      if (type.nil? || type == :component || type == :whit) && title.to_s =~ REFERENCE
        type, title = Regexp.last_match.captures
      elsif title.nil? && type.is_a?(String) && type =~ REFERENCE
        type, title = Regexp.last_match.captures
      elsif title.nil?
        raise ArgumentError, "No title provided and #{type.inspect} is not a valid resource reference"
      end
      type = munge_type_name(type)
      title = title.to_s == '' ? 'main' : munge_type_name(title) if type == 'Class'
      [type, title]
    end

    def self.munge_type_name(name)
      return 'Class' if name.nil? || name.to_s == '' || name.to_s.casecmp('component').zero?

      name.to_s.sub(/\A::/, '').split('::').map(&:capitalize).join('::')
    end

    # Puppet's `Puppet::Resource::Ral` terminus: the resource the type's
    # providers list with that name, else a new one asked of the default
    # provider.
    module Ral
      def self.find(key, _options = nil)
        type_name, title = key.to_s.split('/', 2)
        type = Puppet::Type.type(type_name.to_s.downcase)
        raise ArgumentError, "Could not find type #{type_name}" unless type

        found = begin
          type.instances.find { |resource| resource.name.to_s == title.to_s }
        rescue StandardError
          nil
        end
        unless found
          found = type.new(title, { type.key_attributes.first.to_s => title })
          provider = type.defaultprovider
          found.provider = provider.new(found) if provider
        end
        found.to_resource
      end
    end
  end
end
