# The part of Puppet's Ruby API that modules' functions call: errors,
# logging, settings, the 4.x function API (Puppet::Functions) and the 3.x
# one (Puppet::Parser::Functions). Everything the engine owns (types,
# variables, other functions, the catalog) is asked of it.

module Puppet
  class Error < RuntimeError
    attr_accessor :file, :line, :pos

    def initialize(message = nil, file = nil, line = nil, pos = nil, original = nil)
      super(message)
      @file = file
      @line = line
      @pos = pos
      @original = original
    end
  end

  class ParseError < Error; end
  class ParseErrorWithIssue < ParseError; end
  class DevError < Error; end
  class MissingCommand < Error; end
  class ResourceError < Error; end
  class LexError < Error; end

  module Util
    module Logging
      # A provider logs under its own name, as Puppet's do
      # (`Mrtest_kv[a](provider=plain)`), a resource or one of its
      # parameters under its path (`/Stage[main]/Main/Kv[a]/ensure`);
      # everything else under Puppet's.
      %w[debug info notice warning err alert emerg crit].each do |level|
        define_method(level) do |*messages|
          source = if is_a?(Puppet::Provider) then to_s
                   elsif is_a?(Puppet::Type) || is_a?(Puppet::Parameter) then path
                   elsif is_a?(Class) && self < Puppet::Provider && resource_type
                     # A provider class logs under its name.
                     to_s
                   end
          Marionette.log(level, messages.join(' '), source)
        end
      end

      # Once for each key while the host lives, as Puppet warns once a
      # process: with no key, once for each place that warns (a deprecated
      # provider made for every resource warns once).
      def deprecation_warning(message, key = nil)
        key ||= caller(1, 1).first.to_s.sub(/:in .*/, '')
        Logging.once([:deprecation, key]) { Marionette.log('warning', message) }
      end

      def warn_once(kind, key, message, _file = nil, _line = nil, _level = :warning)
        Logging.once([kind, key]) { Marionette.log('warning', message) }
      end

      def self.once(key)
        @warned ||= {}
        return if @warned.key?(key)

        @warned[key] = true
        yield
      end
    end
    extend Logging

    module Errors
      def fail(*args)
        error = args.first.is_a?(Class) ? args.shift : Puppet::Error
        raise error, args.join(' ')
      end

      def devfail(message)
        raise Puppet::DevError, message
      end
    end

    def self.logmethods(klass, *)
      klass.include(Logging)
    end

    # Puppet's helpers, callable as `Puppet::Util.which` and, in the
    # classes that include or extend Puppet::Util (providers), bare.
    def which(bin)
      return (File.executable?(bin) ? bin : nil) if bin.start_with?('/')

      ENV.fetch('PATH', '').split(':').map { |dir| File.join(dir, bin) }.find { |p| File.file?(p) && File.executable?(p) }
    end

    # A user's or group's id: a number as it is, a name looked up, nil for
    # a name the system does not know.
    def uid(user)
      id_of(user) { |name| Etc.getpwnam(name).uid }
    end

    def gid(group)
      id_of(group) { |name| Etc.getgrnam(name).gid }
    end

    def id_of(value)
      return value if value.is_a?(Integer)
      return value.to_i if value.to_s.match?(/\A\d+\z/)

      require 'etc'
      yield(value.to_s)
    rescue ArgumentError
      nil
    end

    def absolute_path?(path, _platform = :posix)
      path.is_a?(String) && path.start_with?('/')
    end

    def get_env(name, _mode = nil) # rubocop:disable Naming/AccessorMethodName
      ENV.fetch(name.to_s, nil)
    end

    def set_env(name, value = nil, _mode = nil) # rubocop:disable Naming/AccessorMethodName
      ENV[name.to_s] = value
    end

    def withumask(mask)
      old = File.umask(mask)
      yield
    ensure
      File.umask(old) if old
    end
    module_function :which, :uid, :gid, :id_of, :absolute_path?, :get_env, :set_env, :withumask

    # The local path of a `file:` URI, unescaped.
    def self.uri_to_path(uri)
      return unless uri.is_a?(URI::Generic)

      URI::DEFAULT_PARSER.unescape(uri.path.to_s)
    end

    # JSON as Puppet's helper reads and writes it.
    module Json
      class ParseError < StandardError; end

      def self.load(text, options = {})
        JSON.parse(text, symbolize_names: options[:symbolize_keys] == true)
      rescue JSON::ParserError => e
        raise ParseError, e.message
      end

      def self.dump(value, options = {})
        options[:pretty] ? JSON.pretty_generate(value) : JSON.generate(value)
      end
    end

    # YAML as Puppet's helper reads it: the safe loader.
    module Yaml
      def self.safe_load(text, allowed_classes = [], filename = nil)
        require 'yaml'
        YAML.safe_load(text, permitted_classes: allowed_classes, aliases: true, filename: filename)
      end

      def self.dump(value)
        require 'yaml'
        YAML.dump(value)
      end
    end

    # A number from a seed, as Puppet draws them (fqdn_rotate).
    def self.deterministic_rand(seed, max)
      deterministic_rand_int(seed, max).to_s
    end

    def self.deterministic_rand_int(seed, max)
      Random.new(seed).rand(max)
    end

    # The deep-copy helper some functions use on hashes they change.
    def self.deep_clone(value)
      Marshal.load(Marshal.dump(value))
    end
  end

  extend Util::Logging

  # What a provider asks of the running application: `stop!` ends the run
  # after the resource being applied (reboot's provider, before an
  # immediate reboot), the other resources skipped.
  class Application
    def self.stop!
      @stop_requested = true
      Marionette.engine.call('stop_run', {})
    end

    def self.restart!
      @restart_requested = true
    end

    def self.stop_requested?
      @stop_requested == true
    end

    def self.restart_requested?
      @restart_requested == true
    end

    def self.interrupted?
      stop_requested? || restart_requested?
    end

    def self.clear!
      @stop_requested = false
      @restart_requested = false
    end
  end

  # The Puppet version modules compare themselves with: the one whose
  # language and APIs Marionette implements.
  PUPPETVERSION = '7.23.0'

  def self.version
    PUPPETVERSION
  end

  module Util
    # What platform the code runs on, as modules ask (concat's file joins
    # fragments with a line break of the platform's): this one.
    module Platform
      def self.windows?
        false
      end

      def self.jruby?
        false
      end

      def self.solaris?
        false
      end

      def self.default_paths
        %w[/usr/sbin /sbin /usr/bin /bin]
      end
    end

    # Puppet's `withenv(hash) { ... }`: the block runs with those
    # variables set, for Ruby and for the commands it runs (which the
    # engine starts, so they are handed over with each command).
    def self.withenv(hash, _mode = :posix)
      saved = ENV.to_hash
      outer = Thread.current[:marionette_withenv]
      given = hash.to_h { |k, v| [k.to_s, v.nil? ? nil : v.to_s] }
      Thread.current[:marionette_withenv] = (outer || {}).merge(given)
      given.each { |k, v| v.nil? ? ENV.delete(k) : ENV[k] = v }
      yield
    ensure
      Thread.current[:marionette_withenv] = outer
      ENV.replace(saved) if saved
    end

    # Puppet's process identity: `asuser` runs its block with the effective
    # user and group changed, when root (mysql's login paths touch the
    # user's file so), and back after; ids may be names.
    module SUIDManager
      def self.uid
        Process.uid
      end

      def self.gid
        Process.gid
      end

      def self.euid
        Process.euid
      end

      def self.egid
        Process.egid
      end

      def self.root?
        Process.uid.zero?
      end

      def self.asuser(new_uid = nil, new_gid = nil)
        return yield unless root? && (new_uid || new_gid)

        old_euid = Process.euid
        old_egid = Process.egid
        begin
          Process.egid = Puppet::Util.gid(new_gid) || raise(Puppet::Error, "Invalid group: #{new_gid}") if new_gid
          Process.euid = Puppet::Util.uid(new_uid) || raise(Puppet::Error, "Invalid user: #{new_uid}") if new_uid
          yield
        ensure
          Process.euid = old_euid
          Process.egid = old_egid
        end
      end
    end

    # The log's level, as providers ask it to choose how much to say
    # (powershell's pwsh manager): the command's `log_level` setting, else
    # Puppet's default.
    module Log
      def self.level
        (Marionette.setting('log_level') || 'notice').to_sym
      end
    end

    # `diff` between two files, as Puppet shows a change (augeas's
    # provider with `show_diff`): Puppet's `diff -u`, its output whatever
    # the exit code.
    module Diff
      def diff(old, new)
        command = [Puppet[:diff] || 'diff']
        args = Puppet[:diff_args] || '-u'
        command << args unless args.to_s.empty?
        Puppet::Util::Execution.execute(command + [old, new], failonfail: false, combine: false)
      end
      module_function :diff
    end

    # `Puppet::Util::Package.versioncmp`, or `versioncmp` in a class that
    # includes it (augeas's provider).
    module Package
      def versioncmp(a, b)
        Marionette.engine.call('compare_versions', { 'a' => a.to_s, 'b' => b.to_s })['result']
      end
      module_function :versioncmp
    end
  end

  # Settings the engine knows; the rest are asked of it by name.
  def self.[](name)
    Marionette.setting(name)
  end

  def self.[]=(name, value)
    Marionette.override_setting(name, value)
  end

  def self.settings
    SettingsProxy.new
  end

  RunMode = Struct.new(:name) do
    def agent?
      name == :agent
    end

    def user?
      name == :user
    end

    def server?
      false
    end
  end

  # How Puppet runs: `agent` for an agent's run, else `user` (apply).
  def self.run_mode
    RunMode.new((Marionette.setting('run_mode') || 'user').to_sym)
  end

  class SettingsProxy
    def [](name)
      Marionette.setting(name)
    end

    def value(name, _env = nil)
      Marionette.setting(name)
    end

    # The settings as a section of an environment sees them (extlib's
    # `extlib__puppet_config` fact): the command's one set of values.
    def values(_environment = nil, _section = nil)
      Values.new
    end

    # What `values` gives: each setting by its name, its references
    # already resolved.
    class Values
      def interpolate(name)
        Marionette.setting(name)
      end
      alias [] interpolate
    end
  end

  # The environment being compiled, for functions that ask which.
  class Environment
    attr_reader :name

    def initialize(name)
      @name = name.to_sym
    end

    def to_s
      @name.to_s
    end

    def modulepath
      Marionette.modulepath
    end

    def module(name)
      dir = Marionette.module_directory(name.to_s)
      dir && Module.new(name.to_s, dir)
    end

    # The `lib` directory of each module on the module path, first module
    # of a name first (augeas's lenses are looked for there).
    def each_plugin_directory(&block)
      seen = {}
      dirs = Array(modulepath).flat_map { |path| Dir.glob(File.join(path, '*', 'lib')).sort }
      dirs.each do |dir|
        name = File.basename(File.dirname(dir))
        next if seen[name]

        seen[name] = true
        block.call(dir)
      end
    end
  end

  # A module on the module path.
  class Module
    attr_reader :name, :path

    def initialize(name, path)
      @name = name
      @path = path
    end

    # The module of the name on the environment's module path, or nil.
    def self.find(name, _environment = nil)
      dir = Marionette.module_directory(name.to_s)
      dir && new(name.to_s, dir)
    end

    def file(relative)
      full = File.join(@path, 'files', relative)
      File.exist?(full) ? full : nil
    end

    def template(relative)
      full = File.join(@path, 'templates', relative)
      File.exist?(full) ? full : nil
    end
  end

  # What Puppet's file serving finds for a `source`: a local path, a
  # `file:` URI, or a module's file (`puppet:///modules/M/F`), as concat's
  # `eval_generate` reads its fragments' sources. Nothing is served from
  # elsewhere: a source found nowhere is nil, as Puppet's lookup answers.
  module FileServing
    # The local file a source names, or nil.
    def self.local_path(source)
      text = source.to_s
      path = if text.start_with?('/')
               text
             elsif text.start_with?('file:')
               Puppet::Util.uri_to_path(URI.parse(text))
             elsif (served = %r{\Apuppet://[^/]*/modules/([^/]+)/(.+)\z}.match(text))
               name, file = served.captures
               found = Puppet::Module.find(name) unless file.split('/').include?('..')
               found&.file(file)
             end
      path && File.exist?(path) ? path : nil
    rescue URI::InvalidURIError
      nil
    end

    # A source's lookups: `find` gives a `Metadata` or `Content` of the
    # file, or nil when there is none.
    class Indirection
      def initialize(kind)
        @kind = kind
      end

      def find(source, _options = {})
        path = FileServing.local_path(source)
        path && @kind.new(path)
      end
    end

    # A file as a source: its path and what `stat` says of it.
    class Metadata
      attr_reader :path, :ftype, :mode, :owner, :group, :destination

      def self.indirection
        @indirection ||= Indirection.new(self)
      end

      def initialize(path)
        @path = path
        stat = File.lstat(path)
        @ftype = stat.ftype
        @mode = stat.mode & 0o7777
        @owner = stat.uid
        @group = stat.gid
        @destination = stat.symlink? ? File.readlink(path) : nil
      end

      def checksum
        require 'digest'
        "{sha256}#{Digest::SHA256.file(@path).hexdigest}" if @ftype == 'file'
      end
    end

    # A file's content as a source, read as Puppet reads it: binary.
    class Content
      attr_reader :path

      def self.indirection
        @indirection ||= Indirection.new(self)
      end

      def initialize(path)
        @path = path
      end

      def content
        @content ||= File.binread(@path)
      end
    end
  end

  def self.lookup(name, *)
    case name.to_sym
    when :current_environment, :environments then Environment.new(Marionette.environment)
    when :loaders, :global_scope then Marionette::Scope.current
    else (block_given? ? yield : nil)
    end
  end

  def self.override(*)
    yield
  end

  def self.features
    Features
  end

  # Ruby features Puppet's code tests for: those modules add
  # (`lib/puppet/feature/NAME.rb`, loaded when first asked for, as
  # Puppet's autoloader does: nodejs's `npm`), else a library of the name
  # that can be loaded.
  module Features
    @results = {}
    @checks = {}
    @looked_for = []

    # Puppet's `add(name, libs: [...]) { check }`: the check's answer is
    # kept once it is true, and asked again while it is false (a feature
    # a run's package brings).
    def self.add(name, options = {}, &block)
      name = name.to_sym
      @checks[name] = block || proc { Array(options[:libs]).all? { |lib| Marionette.loadable?(lib.to_s) } }
      @results.delete(name)
      meta_def("#{name}?") do
        @results[name] = @checks[name].call ? true : false unless @results[name]
        @results[name]
      end
    end

    # What feature files call to define their own `NAME?`.
    def self.meta_def(name, &block)
      define_singleton_method(name, &block)
    end

    def self.method_missing(name, *)
      return super unless name.to_s.end_with?('?')

      feature = name.to_s.chomp('?')
      unless @looked_for.include?(feature)
        @looked_for << feature
        file = Marionette.module_lib_file("puppet/feature/#{feature}")
        Marionette::Files.load(file) if file
        return send(name) if singleton_methods.include?(name)
      end
      Marionette.loadable?(feature)
    end

    def self.respond_to_missing?(name, include_private = false)
      name.to_s.end_with?('?') || super
    end

    def self.root?
      Process.uid.zero?
    end

    def self.posix?
      true
    end

    def self.microsoft_windows?
      false
    end
  end

  # The 4.x function API.
  module Functions
    def self.create_function(func_name, function_base = Function, &block)
      name = func_name.to_s
      klass = Class.new(function_base)
      klass.instance_variable_set(:@function_name, name)
      klass.class_eval(&block)
      Marionette::Functions.defined(name, klass)
      klass
    end

    # What a dispatch block declares: parameters with their types (as the
    # engine will parse them), a block, a return type, and injections.
    class DispatchBuilder
      attr_reader :dispatch

      def initialize(method, mismatch)
        @dispatch = { 'method' => method.to_s, 'params' => [], 'block' => nil, 'returns' => nil,
                      'mismatch' => mismatch, 'scope' => false }
      end

      def param(type, name)
        add(type, name, 'required')
      end
      alias required_param param

      def optional_param(type, name)
        add(type, name, 'optional')
      end

      def repeated_param(type, name)
        add(type, name, 'repeated')
      end
      alias optional_repeated_param repeated_param

      def required_repeated_param(type, name)
        add(type, name, 'required_repeated')
      end

      def block_param(*type_and_name)
        block(type_and_name, false)
      end
      alias required_block_param block_param

      def optional_block_param(*type_and_name)
        block(type_and_name, true)
      end

      def return_type(type)
        @dispatch['returns'] = type.to_s
      end

      def scope_param
        @dispatch['scope'] = true
      end

      # Injections Marionette has no counterpart for are given nil.
      def compiler_param; end
      def cache_param; end
      def pal_compiler_param; end
      def script_compiler_param; end

      private

      def add(type, name, kind)
        @dispatch['params'] << { 'type' => type.to_s, 'name' => name.to_s, 'kind' => kind }
      end

      def block(type_and_name, optional)
        type, name = type_and_name.size == 2 ? type_and_name : ['Callable', type_and_name.first || :block]
        @dispatch['block'] = { 'type' => type.to_s, 'name' => name.to_s, 'optional' => optional }
      end
    end

    class Function
      class << self
        attr_reader :function_name

        def name
          @function_name
        end

        def dispatches
          @dispatches ||= []
        end

        def local_type_definitions
          @local_type_definitions ||= []
        end

        def dispatch(method, &block)
          add_dispatch(method, false, &block)
        end

        def argument_mismatch(method, &block)
          add_dispatch(method, true, &block)
        end

        def local_types(&block)
          builder = LocalTypes.new
          builder.instance_eval(&block)
          local_type_definitions.concat(builder.definitions)
        end

        private

        def add_dispatch(method, mismatch, &block)
          builder = DispatchBuilder.new(method, mismatch)
          builder.instance_eval(&block) if block
          dispatches << builder.dispatch
        end
      end

      def initialize(closure_scope = nil, loader = nil)
        @closure_scope = closure_scope
        @loader = loader
      end

      def closure_scope
        Marionette::Scope.current
      end

      def loader
        @loader
      end

      def call_function(name, *args, &block)
        Marionette.call_function(name.to_s, args, &block)
      end

      # The engine chooses the dispatcher; a call made from Ruby goes
      # through it too.
      def call(_scope, *args, &block)
        Marionette.call_function(self.class.name, args, &block)
      end

      def call_function_with_scope(_scope, name, *args, &block)
        call_function(name, *args, &block)
      end
    end

    # `local_types do type 'Name = Definition' end`.
    class LocalTypes
      attr_reader :definitions

      def initialize
        @definitions = []
      end

      def type(assignment)
        @definitions << assignment.to_s
      end
    end

    class InternalFunction < Function; end
  end

  module Parser
    # The 3.x function API: each function becomes a method of the scope,
    # `function_NAME`, taking its arguments as one array.
    module Functions
      def self.newfunction(name, options = {}, &block)
        name = name.to_s
        type = (options[:type] || :statement).to_s
        raise Puppet::DevError, "Invalid statement type #{type.inspect}" unless %w[rvalue statement].include?(type)

        arity = options[:arity] || -1
        Marionette::Scope.send(:define_method, "real_function_#{name}", &block)
        Marionette::Functions.defined3x(name, 'type' => type, 'arity' => arity)
        { name: name, type: type.to_sym, arity: arity }
      end

      def self.function(name)
        name = name.to_s
        Marionette::Functions.known3x?(name) || Marionette.function_exists?(name) ? "function_#{name}" : false
      end

      def self.rvalue?(name)
        Marionette::Functions.rvalue3x?(name.to_s)
      end

      def self.autoloader
        Autoloader
      end

      module Autoloader
        def self.loadall(*); end
      end
    end

    class Scope
    end

    # Where a template or a module's file is, as functions that read
    # templates themselves (datacat's `template_body`) find it.
    module Files
      def self.find_template(template, _environment = nil)
        find_in_module(template.to_s, 'templates')
      end

      def self.find_file(file, _environment = nil)
        find_in_module(file.to_s, 'files')
      end

      def self.find_in_module(name, kind)
        return (File.exist?(name) ? name : nil) if name.start_with?('/')

        module_name, rest = name.split('/', 2)
        return nil if rest.nil? || rest.empty?

        dir = Marionette.module_directory(module_name)
        path = dir && File.join(dir, kind, rest)
        path && File.exist?(path) ? path : nil
      end
    end
  end
end
