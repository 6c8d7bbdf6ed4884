# Describing a module's resource type (lib/puppet/type/NAME.rb) for the
# compiler: its attributes, which of them identify a resource, and how a
# title fills them. The type DSL is run for its declarations; the blocks
# that validate and munge values are kept but not run.

module Marionette
  # Takes any declaration and ignores it: the DSL methods of types and
  # parameters that describing a type does not need.
  module Lenient
    def method_missing(_name, *_args, **_opts, &_block)
      nil
    end

    def respond_to_missing?(_name, _include_private = false)
      true
    end
  end
end

module Marionette
  # Docs as Puppet shows them: a one-line doc trimmed; a longer one with
  # the indentation its lines after the first share taken off every
  # line, and trailing blanks dropped.
  module Docs
    def self.scrub(text)
      return text.strip unless text.strip.include?("\n")

      rest = text.partition("\n").last
      indent = rest.scan(/^[ \t]*(?=\S)/).min || ''
      text = text.gsub(/^#{indent}/, '') unless indent.empty?
      text.lines.map(&:rstrip).join("\n").rstrip
    end
  end
end

module Puppet
  class Parameter
    class << self
      attr_reader :parameter_name

      def isnamevar
        @isnamevar = true
      end

      def isnamevar?
        @isnamevar == true
      end

      def boolean?
        @boolean == true
      end

      def mark_boolean
        @boolean = true
      end

      # Declarations whose meaning matters only when applying (desc,
      # newvalues, defaultto, validate, munge, ...) are taken and ignored.
      include Marionette::Lenient
    end

    # The boolean parameters of `newparam(:force, boolean: true, parent:
    # Puppet::Parameter::Boolean)`.
    class Boolean < Parameter
      mark_boolean
    end

    # Puppet's other parameter classes (`Puppet::Parameter::Path`, ...) a
    # type may derive from: each stands in as a plain parameter.
    def self.const_missing(name)
      const_set(name, Class.new(self))
    end
  end

  class Property < Parameter
    class Ensure < Property; end
  end

  class Type
    class << self
      attr_reader :type_name

      def name
        @type_name
      end

      def newtype(name, options = {}, &block)
        klass = Class.new(Type)
        klass.instance_variable_set(:@self_refresh, options[:self_refresh] ? true : false)
        # Named as Puppet names it (`Puppet::Type::Alternative_entry`),
        # which modules' code compares.
        constant = name.to_s.capitalize
        if constant.match?(/\A[A-Z]\w*\z/)
          Type.send(:remove_const, constant) if Type.const_defined?(constant, false)
          Type.const_set(constant, klass)
        end
        klass.instance_variable_set(:@type_name, name.to_s)
        klass.class_eval(&block) if block
        Marionette::Types.defined(name.to_s, klass)
        klass
      end

      def type(name)
        Marionette::Types.find(name.to_s)
      end

      def attributes
        @attributes ||= []
      end

      def features_declared
        @features_declared ||= []
      end

      def ensurable(&block)
        add_attribute(:ensure, 'property', Puppet::Property::Ensure, {}, block)
      end

      def ensurable?
        attributes.any? { |a| a[:name] == 'ensure' }
      end

      # Whether `ensure` is `ensurable`'s (Puppet's Ensure property),
      # rather than a plain property of that name (mount's).
      def ensure_from_ensurable?
        attributes.any? { |a| a[:name] == 'ensure' && a[:class] <= Puppet::Property::Ensure }
      end

      def self_refresh
        @self_refresh || false
      end

      def newparam(name, options = {}, &block)
        add_attribute(name, 'parameter', options[:parent] || Puppet::Parameter, options, block)
      end

      def newproperty(name, options = {}, &block)
        add_attribute(name, 'property', options[:parent] || Puppet::Property, options, block)
      end

      def newmetaparam(*); end

      # A feature, and the provider methods that give it
      # (`feature :paint, 'doc', methods: [:paint]`).
      def feature(name, doc = nil, options = {})
        features_declared << name.to_s
        feature_docs[name.to_s] = doc.to_s
        feature_methods[name.to_s] = Array(options[:methods]).map(&:to_sym)
      end

      def feature_docs
        @feature_docs ||= {}
      end

      def feature_methods
        @feature_methods ||= {}
      end

      # Providers are applied by another part; a type that has any takes a
      # `provider` parameter.
      def provide(*)
        self
      end

      # A core type the engine implements (`file`), as modules' code makes
      # its resources (concat's `Puppet::Type.type(:file).new(path: ...,
      # mode: ...)`), named by the type's namevar.
      def stand_in?
        @stand_in == true
      end

      CORE_NAMEVARS = { 'file' => :path, 'exec' => :command, 'tidy' => :path }.freeze

      def key_attributes
        return [CORE_NAMEVARS.fetch(type_name, :name)] if stand_in?

        named = attributes.select { |a| a[:class].isnamevar? }.map { |a| a[:name].to_sym }
        named.empty? && attributes.any? { |a| a[:name] == 'name' } ? [:name] : named
      end

      def title_patterns
        keys = key_attributes
        keys.size == 1 ? [[/(.*)/m, [[keys.first]]]] : []
      end

      # Declarations whose meaning matters only when applying
      # (autorequire, validate, features' details, ...).
      include Marionette::Lenient

      # `Puppet::Type::File` is a type; `Puppet::Type::File::Owner` one of
      # its parameters, which a module's type may derive from.
      def const_missing(name)
        return Marionette::Types.find(name.to_s.downcase) if equal?(Puppet::Type)

        const_set(name, Class.new(Puppet::Parameter))
      end

      private

      def add_attribute(name, kind, parent, options, block)
        parameter = Class.new(parent)
        parameter.instance_variable_set(:@parameter_name, name.to_s)
        parameter.isnamevar if options[:namevar]
        parameter.mark_boolean if options[:boolean]
        parameter.array_matching(options[:array_matching]) if options[:array_matching] && parameter.respond_to?(:array_matching)
        # `boolean: true` gives the type a `force?` for a parameter `force`.
        if options[:boolean]
          define_method("#{name}?") do
            value = self[name]
            [true, :true, 'true', :yes, 'yes'].include?(value) # rubocop:disable Lint/BooleanSymbol
          end
        end
        parameter.class_eval(&block) if block
        attributes.reject! { |a| a[:name] == name.to_s }
        attributes << { name: name.to_s, kind: kind, class: parameter,
                        features: Array(options[:required_features]).map(&:to_s) }
        parameter
      end
    end

    # What `describe` shows of a type, as its DSL declared it, in the
    # engine's type data (see marionette_ral::type_from_data): its doc,
    # features, and each attribute's doc, values, aliases, patterns and
    # required features.
    def self.reference(klass)
      {
        'name' => klass.type_name,
        'doc' => Marionette::Docs.scrub(klass.instance_variable_get(:@doc).to_s),
        'features' => klass.features_declared.map { |f| { 'name' => f, 'doc' => klass.feature_docs[f].to_s } },
        'attributes' => klass.attributes.map { |a| attribute_reference(klass, a) }
      }
    end

    def self.attribute_reference(klass, attr)
      parameter = attr[:class]
      values = parameter.respond_to?(:values_declared) ? parameter.values_declared : []
      named = values.reject(&:regex?)
      {
        'name' => attr[:name],
        'kind' => attr[:kind],
        # A parameter's own doc, else its parent class's (`ensurable`'s).
        'doc' => Marionette::Docs.scrub(parameter.ancestors.map { |a| a.instance_variable_get(:@doc) }.compact.first.to_s),
        'namevar' => klass.key_attributes.include?(attr[:name].to_sym),
        'values' => named.map { |v| v.name.to_s },
        'aliases' => named.flat_map { |v| v.aliases.map { |a| [a.to_s, v.name.to_s] } }.to_h,
        'patterns' => values.select(&:regex?).map { |v| v.name.source },
        'required_features' => attr[:features]
      }
    end

    # Whether an attribute's own code sees its value whole when it is set
    # (a `should=` or `value=` of its own, as cs_colocation's).
    def self.whole_checked?(attr_class)
      %i[should= value=].any? do |name|
        attr_class.method_defined?(name) &&
          ![Puppet::Property, Puppet::Parameter].include?(attr_class.instance_method(name).owner)
      end
    end

    def self.describe(klass)
      patterns = Array(klass.title_patterns).map do |regex, fields|
        { 'pattern' => regex.to_s, 'attributes' => Array(fields).map { |f| Array(f).first.to_s } }
      end
      {
        'name' => klass.type_name,
        'attributes' => klass.attributes.map do |a|
          { 'name' => a[:name], 'kind' => a[:kind], 'namevar' => klass.key_attributes.include?(a[:name].to_sym),
            'boolean' => a[:class].boolean?,
            'array_all' => a[:class].respond_to?(:array_matching) && a[:class].array_matching == :all,
            'whole_checked' => whole_checked?(a[:class]) }
        end,
        'ensurable' => klass.ensure_from_ensurable?,
        'refreshable' => klass.method_defined?(:refresh),
        'self_refresh' => klass.self_refresh,
        'titled' => klass.instance_method(:title).owner != Puppet::Type,
        'generates' => klass.method_defined?(:generate) || klass.method_defined?(:eval_generate),
        'fills_late' => klass.method_defined?(:eval_generate),
        'pre_run_checks' => klass.method_defined?(:pre_run_check),
        'features' => klass.features_declared,
        'title_patterns' => patterns,
        'autorelations' => klass.autorelations.map { |kind, target, _| [kind, target] }.uniq
      }
    end
  end
end

module Marionette
  module Types
    class << self
      def table
        @table ||= {}
      end

      def defined(name, klass)
        table[name] = klass
      end

      # A type by name: one a module file declared (loaded with its
      # providers when first asked for, as a type's `generate` may ask for
      # another's instances), a core type the host defines for modules'
      # providers (`Core`), or a stand-in for another core type, which
      # modules' types may refer to (`Puppet::Type.type(:file)`).
      def find(name)
        table[name] || from_module(name) || Core.define(name) ||
          (table[name] = Class.new(Puppet::Type).tap do |k|
            k.instance_variable_set(:@type_name, name)
            k.instance_variable_set(:@stand_in, true)
          end)
      end

      def from_module(name)
        file = Marionette.module_lib_file("puppet/type/#{name}") or return nil
        Files.load(file)
        return nil unless table[name]

        load_providers(name)
        table[name]
      end

      # The providers modules ship for a type, loaded if they are not.
      def load_providers(name)
        Array(Marionette.modulepath).each do |dir|
          Dir.glob(File.join(dir, '*', 'lib', 'puppet', 'provider', name, '*.rb')).sort.each { |f| Files.load(f) }
        end
      end
    end
  end
end
