# The scope a Ruby function or template sees: the scope of the Puppet
# code that called it. It holds nothing itself; every question goes to
# the engine, which answers from the calling scope.

class Puppet::Parser::Scope
  include Puppet::Util::Logging
  include Puppet::Util::Errors

  # The scope of the call being served, innermost first: a call may nest
  # inside another (a template calling a function calling a function).
  def self.current
    Marionette.scopes.last || new({})
  end

  attr_reader :context

  def initialize(context)
    @context = context
  end

  def lookupvar(name, _options = {})
    found = Marionette.engine.call('lookupvar', { 'name' => name.to_s })
    return nil unless found['found']

    # A value Ruby set is given back as the very object while the variable
    # still holds it: templates set a hash and change it in place for the
    # templates they include (apache's `_template_scope`).
    kept = Marionette.set_objects[name.to_s]
    return kept[0] if kept && kept[1] == found['value']

    Marionette::Wire.decode(found['value'])
  end

  def [](name, options = {})
    lookupvar(name, options)
  end

  def exist?(name)
    Marionette.engine.call('lookupvar', { 'name' => name.to_s })['found']
  end
  alias include? exist?
  alias bound? exist?

  def []=(name, value)
    encoded = Marionette::Wire.encode(value)
    Marionette.engine.call('setvar', { 'name' => name.to_s, 'value' => encoded })
    Marionette.set_objects[name.to_s] = [value, JSON.parse(JSON.generate(encoded))]
  end
  alias setvar []=

  # Every variable the calling code sees, as a template's `scope.to_hash`.
  def to_hash(_recursive = true, _include_undef = false)
    Marionette::Wire.decode(Marionette.engine.call('variables', {})['variables'])
  end

  # The arguments are splatted as Puppet splats them: a Hash gives its
  # pairs (sudo's template passes its defaults so), anything else that is
  # not an Array is the one argument.
  def call_function(name, args = [], &block)
    Marionette.call_function(name.to_s, [*args], &block)
  end

  def function_exists?(name)
    Marionette.function_exists?(name.to_s)
  end

  def method_missing(name, *args, &block)
    if (function = name.to_s[/\Afunction_(.+)\z/, 1])
      raise ArgumentError, "#{function}(): function arguments must be given as one Array" unless args.size <= 1

      arguments = Array(args.first)
      file = Marionette::Functions.known3x?(function) ? true : Marionette::Functions.find3x(function)
      return Marionette.call_function(function, arguments, &block) unless file

      Marionette::Functions.load(function, file, 'v3') unless file == true
      return Marionette::Functions.call3(function, arguments)
    end
    super
  end

  def respond_to_missing?(name, include_private = false)
    name.to_s.start_with?('function_') || super
  end

  def environment
    Puppet::Environment.new(Marionette.environment)
  end

  def compiler
    Compiler.new(self)
  end

  def catalog
    Catalog.new
  end

  def source
    Source.new(@context['module'])
  end

  def findresource(type, title = nil)
    type, title = type.to_s.match(/\A(.+?)\[(.*)\]\z/m)&.captures || [type, title] if title.nil?
    found = Marionette.engine.call('find_resource', { 'type' => type.to_s, 'title' => title.to_s })
    found['found'] ? Resource.new(type.to_s, title.to_s, Marionette::Wire.decode(found['parameters'])) : nil
  end

  def tags
    []
  end

  def lookupdefaults(_type)
    {}
  end

  def strict_variables?
    Marionette.setting('strict_variables') == true
  end

  def to_s
    "Scope(#{@context['scope'] || 'Class[main]'})"
  end

  # The class or defined type the calling code belongs to.
  class Source
    attr_reader :module_name

    def initialize(module_name)
      @module_name = module_name
    end
  end

  class Compiler
    def initialize(scope)
      @scope = scope
    end

    def environment
      @scope.environment
    end

    def catalog
      @scope.catalog
    end

    def topscope
      @scope
    end
  end

  # The catalog so far, read through the engine.
  class Catalog
    def resource(type, title = nil)
      Puppet::Parser::Scope.current.findresource(type, title)
    end

    def classes
      Marionette.engine.call('catalog_info', {})['classes']
    end

    def tags
      Marionette.engine.call('catalog_info', {})['tags']
    end
  end

  # A resource of the catalog, as `findresource` returns it.
  class Resource
    attr_reader :type, :title, :parameters

    def initialize(type, title, parameters)
      @type = type
      @title = title
      @parameters = parameters
    end

    def [](name)
      @parameters[name.to_s]
    end

    def to_hash
      @parameters.transform_keys(&:to_sym)
    end

    def to_s
      Marionette::ResourceRef.new(@type, @title).to_s
    end
    alias ref to_s
  end
end

module Marionette
  Scope = Puppet::Parser::Scope
end
