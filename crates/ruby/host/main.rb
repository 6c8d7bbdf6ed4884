# What the host does for the engine: load module files, describe and call
# functions, render ERB templates, describe resource types. Started by the
# engine, the host runs until told to stop or until its input closes.

module Marionette
  class << self
    attr_reader :environment, :modulepath, :fact_files, :skipped_facts, :template_cache

    def scopes
      @scopes ||= []
    end

    # The objects Ruby code set as variables, with what the engine was
    # told (see Scope#lookupvar); forgotten when a compile begins.
    def set_objects
      @set_objects ||= {}
    end

    def configure(params)
      @environment = params['environment'].to_s
      @modulepath = Array(params['modulepath'])
      @settings = params['settings'] || {}
      @fact_files = Array(params['fact_files'])
      # Facts whose code stopped a host before this one.
      @skipped_facts = Array(params['skipped_facts'])
      # Where templates are kept compiled (see Templates): a directory the
      # engine made the user's own, none without a cache.
      @template_cache = params['template_cache']
      @modulepath.each do |dir|
        Dir.glob(File.join(File.expand_path(dir), '*', 'lib')).sort.each { |lib| $LOAD_PATH << lib unless $LOAD_PATH.include?(lib) }
      end
    end

    # A file of a module's `lib` directory, by the name `require` takes:
    # its absolute path, which `require` loads as it is (a relative one it
    # would look for along the load path).
    def module_lib_file(name)
      file = name.end_with?('.rb') ? name : "#{name}.rb"
      Array(@modulepath).each do |dir|
        Dir.glob(File.join(dir, '*', 'lib', file)).sort.each { |found| return File.expand_path(found) }
      end
      nil
    end

    # Settings the run decides (a type's file may ask before the run
    # begins): asked each time, never kept.
    RUN_SETTINGS = %w[noop show_diff].freeze

    def setting(name)
      name = name.to_s
      return @settings[name] if @settings.key?(name)

      value = Wire.decode(engine.call('setting', { 'name' => name })['value'])
      RUN_SETTINGS.include?(name) ? value : (@settings[name] = value)
    end

    # A setting module code changes for itself (`Puppet[:name] = value`:
    # archive's default_file_terminus around a download), for this host.
    def override_setting(name, value)
      @settings[name.to_s] = value
    end

    def module_directory(name)
      engine.call('module_directory', { 'name' => name })['path']
    end

    def log(level, message, source = nil)
      engine.log(level, message, source)
    end

    def function_exists?(name)
      engine.call('exists', { 'name' => name })['found']
    end

    # Calls any function the engine knows. A Ruby block stays here: the
    # engine chooses the dispatcher by its parameter count and calls the
    # (Ruby) function back with `ruby` set, which is then given the block
    # itself (see `call`).
    def call_function(name, args, &block)
      # A 3.x function that another function's file defined as it loaded
      # (docker's `docker::escape`, in docker_run_flags.rb) has no file of
      # its own for the engine to find; Puppet finds it among the 3.x
      # functions already defined.
      return Functions.call3(name, args) if Functions.helper3x?(name)

      request = { 'name' => name, 'args' => Wire.encode(args) }
      if block
        request['block'] = { 'parameters' => block.parameters.count { |kind, _| %i[req opt].include?(kind) } }
        ruby_blocks.push(block)
      end
      answer = begin
        engine.call('call', request)
      rescue EngineError => e
        # What a called function raised is a Puppet::ParseError in Puppet
        # (extlib's has_module rescues get_module_path's).
        raise FunctionError, e.message
      ensure
        ruby_blocks.pop if block
      end
      Wire.decode(answer['value'])
    end

    # The Ruby blocks of the calls to the engine under way, innermost last.
    def ruby_blocks
      @ruby_blocks ||= []
    end

    # Whether a library can be required, for `Puppet.features.NAME?`.
    def loadable?(name)
      require name
      true
    rescue LoadError
      false
    end

    # Runs `block` with `context` as the calling scope.
    def in_scope(context)
      scopes.push(Scope.new(context))
      yield scopes.last
    ensure
      scopes.pop
    end
  end

  # Files loaded, so that each loads once (again when it changes).
  module Files
    def self.load(file)
      @loaded ||= {}
      stamp = File.mtime(file)
      return false if @loaded[file] == stamp

      Kernel.load(file)
      @loaded[file] = stamp
      true
    end
  end

  # The functions module files defined, by name.
  module Functions
    class << self
      def v4
        @v4 ||= {}
      end

      def v3
        @v3 ||= {}
      end

      def instances
        @instances ||= {}
      end

      def defined(name, klass)
        v4[name] = klass
        instances.delete(name)
      end

      def defined3x(name, info)
        v3[name] = info
      end

      def known3x?(name)
        v3.key?(name)
      end

      # Defined, but by another function's file: there is no file by its
      # name, nor a 4.x function of the name.
      def helper3x?(name)
        known3x?(name) && !v4.key?(name) && find3x(name).nil?
      end

      def rvalue3x?(name)
        v3.dig(name, 'type') == 'rvalue'
      end

      def load(name, file, api)
        Files.load(file)
        table = api == 'v3' ? v3 : v4
        unless table.key?(name)
          raise LoadError, "#{file} did not define the function '#{name}' (the function's name and its file's path must agree)"
        end

        api == 'v3' ? v3[name].merge('api' => 'v3') : describe4(name, v4[name])
      end

      def describe4(name, klass)
        dispatches = klass.dispatches
        if dispatches.empty?
          simple = name.split('::').last
          unless klass.method_defined?(simple)
            raise ArgumentError,
                  "Function Creation Error, cannot create a default dispatcher for function '#{name}', no method with this name found"
          end

          dispatches = [default_dispatch(klass.instance_method(simple))]
        end
        # A class with its own `call` (stdlib's validate_* functions) takes
        # the scope as a first argument its dispatchers declare.
        custom = klass.instance_method(:call).owner != Puppet::Functions::Function
        { 'api' => 'v4', 'dispatchers' => dispatches, 'local_types' => klass.local_type_definitions,
          'scope_first' => custom }
      end

      # Without `dispatch`, the method named after the function takes
      # anything, as many arguments as its Ruby parameters allow.
      def default_dispatch(method)
        params = method.parameters.filter_map do |kind, pname|
          case kind
          when :req then { 'type' => 'Any', 'name' => pname.to_s, 'kind' => 'required' }
          when :opt then { 'type' => 'Any', 'name' => pname.to_s, 'kind' => 'optional' }
          when :rest then { 'type' => 'Any', 'name' => pname.to_s, 'kind' => 'repeated' }
          end
        end
        block = method.parameters.find { |kind, _| kind == :block }
        { 'method' => method.name.to_s, 'params' => params, 'returns' => nil, 'mismatch' => false, 'scope' => false,
          'block' => block && { 'type' => 'Callable', 'name' => block[1].to_s, 'optional' => true } }
      end

      def call4(name, index, args, block)
        klass = v4.fetch(name) { raise ArgumentError, "the function '#{name}' is not loaded" }
        dispatch = describe4(name, klass)['dispatchers'].fetch(index)
        instance = (instances[name] ||= klass.new)
        args = [Scope.current] + args if dispatch['scope'] || describe4(name, klass)['scope_first']
        result = catch(:next) { instance.send(dispatch['method'], *args, &block) }
        return result unless dispatch['mismatch']

        raise ArgumentError, "'#{name}' #{result}"
      end

      # The file of a 3.x function, which `function_NAME` calls in Puppet
      # even where a 4.x function of the same name exists.
      def find3x(name)
        return nil unless name.match?(/\A\w+\z/)

        Marionette.modulepath.each do |dir|
          Dir.glob(File.join(dir, '*', 'lib', 'puppet', 'parser', 'functions', "#{name}.rb")).sort.each do |file|
            return file
          end
        end
        nil
      end

      def call3(name, args)
        info = v3.fetch(name) { raise ArgumentError, "the function '#{name}' is not loaded" }
        arity = info['arity']
        if arity >= 0 && args.size != arity
          raise ArgumentError, "#{name}(): Wrong number of arguments given (#{args.size} for #{arity})"
        elsif arity.negative? && args.size < (arity.abs - 1)
          raise ArgumentError, "#{name}(): Wrong number of arguments given (#{args.size} for minimum #{arity.abs - 1})"
        end

        result = Scope.current.send("real_function_#{name}", args.map { |arg| Wire.to_3x(arg) })
        info['type'] == 'rvalue' ? result : nil
      end
    end
  end

  # An ERB template, rendered as Puppet renders it: every variable the
  # calling code sees is an instance variable, and `scope` is the caller's.
  class TemplateWrapper
    include Puppet::Util::Logging

    def initialize(scope, file, variables)
      @__scope__ = scope
      @__file__ = file
      @__given__ = variables
      variables.each { |name, value| instance_variable_set("@#{name.gsub(/[^\w]/, '_')}", value) }
    end

    # The variables whose array or hash the template changed in place. In
    # Puppet the template holds the very objects of the scope, so such a
    # change reaches the variable and the parameter it came from (apache's
    # vhost templates add to `@scriptaliases` so).
    def changed(before)
      @__given__.each_with_object({}) do |(name, value), changed|
        next unless value.is_a?(Array) || value.is_a?(Hash)
        next unless instance_variable_get("@#{name.gsub(/[^\w]/, '_')}").equal?(value)

        now = Wire.encode(value)
        changed[name] = now unless now == before[name]
      end
    end

    def scope
      @__scope__
    end

    def file
      @__file__
    end

    def has_variable?(name) # rubocop:disable Naming/PredicateName
      scope.exist?(name.to_s)
    end

    def classes
      scope.catalog.classes
    end

    def all_tags
      scope.catalog.tags
    end

    def tags
      raise NotImplementedError, "Call 'all_tags' instead."
    end

    # Renders the template: its file, or `text` for an inline one.
    def render(text)
      send(Templates.method_for(@__file__, text))
    end

    def to_s
      "template[#{@__file__ || 'inline'}]"
    end
  end

  # Templates compiled to Ruby methods of TemplateWrapper, once each: by
  # file (while it keeps its modification time and size) or by inline
  # text. ERB's compiling and Ruby's parsing of the result would otherwise
  # be paid at every render. A template's file is also kept compiled, as
  # Ruby's instruction sequences, in the engine's cache: a one-off compile
  # then loads it without loading ERB or parsing anything (apache's vhost
  # fragments cost about 1.5 ms each to compile, ERB's library 5 ms). Each
  # file has one entry, named by a digest of its path, which begins with
  # the digest of the text it was compiled from: a changed template
  # replaces its entry, so the cache grows with templates, not edits.
  module Templates
    LIMIT = 2000
    # Changes whenever what a template is compiled to does, so that no
    # host loads another's form.
    FORM = 1

    def self.method_for(file, text)
      @methods ||= {}
      key = file ? [file, File.mtime(file), File.size(file)] : [nil, text]
      @methods[key] ||= begin
        @methods.clear if @methods.size >= LIMIT
        source = file ? File.read(file, mode: 'rb:UTF-8') : text
        define(source, file)
      end
    end

    # Defines the method rendering `source` (the text of `file`, or an
    # inline template) and says its name.
    def self.define(source, file)
      digest = Digest::SHA256.hexdigest("#{FORM}\0#{file}\0#{source}")
      name = "__marionette_template_#{digest[0, 32]}"
      return name if TemplateWrapper.method_defined?(name, false)

      kept = file && Marionette.template_cache &&
             File.join(Marionette.template_cache,
                       "#{Digest::SHA256.hexdigest(file)}-#{RUBY_VERSION}-#{RUBY_PLATFORM}-#{RUBY_REVISION}.bin")
      iseq = kept && load(kept, digest)
      unless iseq
        iseq = compile(source, file || '(erb)', name)
        keep(iseq, kept, digest) if kept
      end
      iseq.eval
      name
    end

    # The template as ERB's def_method makes it, a method of
    # TemplateWrapper, on the same lines (the method's own first, at line
    # 0), so that errors name the template's lines.
    def self.compile(source, file, name)
      code = ERB.new(source, trim_mode: '-').src
      code = code.sub(/^(?!#|$)/) { "class ::Marionette::TemplateWrapper; def #{name}\n" } << "\nend; end\n"
      RubyVM::InstructionSequence.compile(code, file, file, -1)
    end

    # The compiled form kept at `path`, if it was compiled from the text
    # whose digest is `digest`.
    def self.load(path, digest)
      kept = File.binread(path)
      return nil unless kept.start_with?("#{digest}\n")

      RubyVM::InstructionSequence.load_from_binary(kept.byteslice(digest.size + 1..))
    rescue StandardError
      nil
    end

    # Written whole under another name, then renamed: a host loading it
    # meanwhile finds the whole of it or nothing.
    def self.keep(iseq, path, digest)
      temporary = "#{path}.#{Process.pid}"
      File.binwrite(temporary, "#{digest}\n#{iseq.to_binary}")
      File.rename(temporary, path)
    rescue StandardError
      File.unlink(temporary) rescue nil # rubocop:disable Style/RescueModifier
    end
  end

  # Serves the engine's requests.
  class Handler
    def handle(method, params)
      case method
      when 'handshake'
        Marionette.configure(params)
        { 'protocol' => 1, 'ruby' => RUBY_VERSION }
      when 'load_function'
        Functions.load(params['name'], params['file'], params['api'])
      when 'call'
        call(params)
      when 'render'
        render(params)
      when 'describe_type'
        describe_type(params)
      when 'type_reference'
        describe_type(params.merge('reference' => true))
      when 'parse_title' then parse_title(params)
      when 'apply_load' then Apply.load(params)
      when 'resource_new' then Apply.new_resource(params)
      when 'resources_new' then Apply.new_resources(params)
      when 'provider_prefetch' then Apply.prefetch(params)
      when 'property_get' then Apply.get(params)
      when 'resource_state' then Apply.state(params)
      when 'resource_states' then Apply.states(params)
      when 'property_set' then Apply.set(params)
      when 'provider_flush' then Apply.flush(params)
      when 'resource_refresh' then Apply.refresh(params)
      when 'provider_instances' then Apply.instances(params)
      when 'custom_facts' then CustomFacts.collect(Array(params['cached']), serial: params['serial'])
      when 'custom_fact' then CustomFacts.fetch(params['name'].to_s)
      when 'check_declared' then Apply.check_declared(params)
      when 'check_built' then Apply.check_built(params)
      when 'change_to_s' then Apply.change_to_s(params)
      when 'generate' then Apply.generate(params)
      when 'pre_run_check' then Apply.pre_run_check(params)
      when 'reset'
        Functions.instances.clear
        Marionette.set_objects.clear
        CustomFacts.values.clear
        {}
      when 'shutdown'
        {}
      else
        raise ArgumentError, "unknown method '#{method}'"
      end
    end

    private

    def call(params)
      Marionette.in_scope(params['context'] || {}) do
        args = Wire.decode(params['args'] || [])
        value = if params['api'] == 'v3'
                  Functions.call3(params['name'], args)
                else
                  Functions.call4(params['name'], params['dispatcher'] || 0, args, given_block(params['block']))
                end
        { 'value' => Wire.encode(value) }
      end
    end

    # The block given to the call: the Ruby block of this host's own call
    # to the engine, or a Puppet lambda as a proc that asks the engine to
    # run it.
    def given_block(block)
      return nil if block.nil?
      return Marionette.ruby_blocks.last if block['ruby']

      count = block['parameters'].to_i
      proxy = proc { |*args| Wire.decode(Marionette.engine.call('yield', { 'args' => Wire.encode(args) })['value']) }
      proxy.define_singleton_method(:parameter_count) { count }
      proxy.define_singleton_method(:parameter_names) { block['names'] || [] }
      proxy.define_singleton_method(:last_captures_rest?) { block['rest'] == true }
      proxy
    end

    def render(params)
      Marionette.in_scope(params['context'] || {}) do |scope|
        variables = Wire.decode(params['variables'] || {})
        wrapper = TemplateWrapper.new(scope, params['file'], variables)
        rendered = wrapper.render(params['text'].to_s)
        { 'text' => rendered, 'changed' => wrapper.changed(params['variables'] || {}) }
      rescue ProtocolError, EngineError, FunctionError
        raise
      rescue Exception => e # rubocop:disable Lint/RescueException
        raise TemplateError.new(e, params)
      end
    end

    def describe_type(params)
      name = params['name']
      Types.table.delete(name)
      Kernel.load(params['file'])
      klass = Types.table[name]
      raise LoadError, "#{params['file']} did not define the type '#{name}'" unless klass

      params['reference'] ? Puppet::Type.reference(klass) : Puppet::Type.describe(klass)
    end

    # The attributes a title gives through the type's title patterns, as
    # Puppet::Resource#parse_title finds them: the first pattern that
    # matches, each group through its procs.
    def parse_title(params)
      name = params['name']
      describe_type(params) unless Types.table[name]
      title = params['title'].to_s
      Array(Types.table[name].title_patterns).each do |regex, fields|
        match = regex.match(title) or next
        values = {}
        Array(fields).zip(match.captures).each do |(attr, *procs), raw|
          values[attr.to_s] = procs.compact.reduce(raw) { |value, p| p.call(value) }
        end
        return { 'values' => Wire.encode(values) }
      end
      raise ArgumentError, "No set of title patterns matched the title \"#{title}\"."
    end
  end

  # A function called from Ruby failed in the engine: Puppet's error class,
  # with the engine's message, which the engine shows as it is.
  class FunctionError < Puppet::ParseError; end

  # A template that failed, with where in the template it failed.
  class TemplateError < StandardError
    attr_reader :line

    def initialize(error, params)
      where = (error.backtrace || []).find { |l| l.start_with?("#{params['file'] || '(erb)'}:") }
      @line = where && where.split(':')[1].to_i
      @error = error
      super(error.message)
    end

    def original_class
      @error.class.name
    end
  end

  class << self
    alias describe_plain_error describe_error

    def describe_error(error)
      return describe_plain_error(error) unless error.is_a?(TemplateError)

      { 'message' => error.message, 'class' => error.original_class, 'template_line' => error.line }
    end
  end
end

# Puppet's translation helpers (gettext): messages are shown untranslated.
module Kernel
  def _(message)
    message
  end

  def n_(singular, plural, count = nil)
    count == 1 ? singular : plural
  end
end

# A module's Ruby may require Puppet's own files; the host stands in for
# them, so such a require succeeds and loads nothing. Gems are loaded only
# when a module's file needs one: RubyGems costs start-up time.
module Kernel
  alias marionette_original_require require

  PUPPETS_OWN = %r{\A(puppet|semantic_puppet|hiera|facter)(/|\z)}.freeze

  def require(name)
    # Puppet's and Facter's own files are never loaded, even where the
    # system has them (Debian installs Puppet as a Ruby library): the host
    # stands in for them. A module's file under the same names (stdlib's
    # `facter/util/puppet_settings`) is loaded from its module.
    if name.to_s.match?(PUPPETS_OWN)
      found = Marionette.module_lib_file(name.to_s)
      return found ? marionette_original_require(found) : false
    end

    marionette_original_require(name)
  rescue LoadError
    return false if name.to_s.match?(PUPPETS_OWN)

    # RubyGems' own `require` then wraps this one, and activates the gem
    # that holds the file (net-ftp, a bundled gem since Ruby 3.1).
    return require(name) if Marionette.load_rubygems

    raise
  end

  def require_relative(path)
    base = caller_locations(1, 1).first&.absolute_path
    full = File.expand_path(path, base ? File.dirname(base) : Dir.pwd)
    return require(full) if File.exist?("#{full}.rb") || File.exist?(full)
    return false if path.to_s.match?(%r{(\A|/)(puppet|semantic_puppet)(/|\z)})

    raise LoadError, "cannot load such file -- #{full}"
  end
end

# YAML, which Puppet's Ruby always has loaded, loads when module code first
# names it or asks a value `to_yaml` (filebeat's templates); Psych's own
# `to_yaml` then replaces this one.
Object.autoload(:YAML, 'yaml') unless defined?(YAML)
# RbConfig too, which RubyGems loads in Puppet's Ruby (pwshlib's platform
# check reads RbConfig::CONFIG['host_os']).
Object.autoload(:RbConfig, 'rbconfig') unless defined?(RbConfig)
class Object
  def to_yaml(*args, **options)
    require 'yaml'
    to_yaml(*args, **options)
  end
end

# RubyGems, which Puppet's Ruby always has loaded, is there as Puppet's
# is, but costs a one-off compile about 40 ms to load whole. What module
# code mostly names of it, `Gem::Version` and `Gem::Requirement` (apache's
# functions and templates, keystone's types), loads alone from RubyGems' own
# files; anything else it has (a constant, `Gem.loaded_specs`) loads it
# whole first. The two files are taken from RubyGems' own directory, so
# that loading it whole later does not load them again.
module Marionette
  # RubyGems' directory, for its files loaded on their own.
  def self.rubygems_dir
    @rubygems_dir ||= begin
      found = $LOAD_PATH.resolve_feature_path('rubygems')
      found && File.join(File.dirname(found[1]), 'rubygems')
    rescue LoadError
      nil
    end
  end

  # Loads RubyGems whole; false when it already was (or cannot be).
  def self.load_rubygems
    return false if @rubygems_loaded

    @rubygems_loaded = true
    marionette_original_require('rubygems')
  rescue LoadError
    false
  end
end

unless defined?(Gem)
  module Gem
    if (dir = Marionette.rubygems_dir)
      autoload :Version, File.join(dir, 'version')
      autoload :Requirement, File.join(dir, 'requirement')
    end
    %i[Specification Dependency Platform LoadError VERSION].each { |name| autoload name, 'rubygems' }

    def self.const_missing(name)
      return super unless Marionette.load_rubygems

      const_get(name)
    end

    def self.method_missing(name, *args, &block)
      return super unless Marionette.load_rubygems && respond_to?(name)

      public_send(name, *args, &block)
    end

    def self.respond_to_missing?(name, include_private = false)
      Marionette.load_rubygems && respond_to?(name, include_private)
    end
  end
end

# Puppet's namespaces answer for constants the host does not define with
# an empty module, so a file that names `Puppet::Util::Something` loads;
# calling into it fails then, naming what is missing.
module Marionette
  module Stand
    def const_missing(name)
      stand_in = Module.new
      stand_in.extend(Stand)
      full = "#{self.name}::#{name}"
      stand_in.define_singleton_method(:name) { full }
      stand_in.define_singleton_method(:method_missing) do |method, *_args, &_block|
        raise NotImplementedError, "#{full}.#{method} is part of Puppet's Ruby, which Marionette's Ruby host does not provide"
      end
      const_set(name, stand_in)
    end
  end
end
[Puppet, Puppet::Util, Puppet::Parser, Puppet::Pops, Puppet::Pops::Types, Puppet::Functions].each do |namespace|
  namespace.extend(Marionette::Stand)
end

$stdout.sync = true
protocol = $stdout.dup
$stdout.reopen($stderr)
STDOUT.sync = true
connection = Marionette::Connection.new($stdin, protocol, Marionette::Handler.new)
Marionette.engine = connection
begin
  connection.serve
rescue Marionette::ProtocolError => e
  warn "marionette ruby host: #{e.message}"
  exit 3
end
