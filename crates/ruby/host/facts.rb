# Custom facts of modules (lib/facter/*.rb), resolved as Facter resolves
# them: `Facter.add` with its resolutions, each with confines and a weight;
# the first suitable resolution by weight that gives a value wins. Facts
# Marionette collects natively are asked of the engine.

module Facter
  class << self
    # The facts being resolved: name to its resolutions.
    def custom
      @custom ||= {}
    end

    def add(name, options = {}, &block)
      resolution = Resolution.new(name.to_s, options)
      resolution.instance_eval(&block) if block
      (custom[name.to_s] ||= []) << resolution
      resolution
    end

    def define_fact(name, options = {}, &block)
      add(name, options, &block)
    end

    # A fact's value: a custom fact of the modules, else one collected
    # natively (asked of the engine), else nil.
    def value(name)
      name = name.to_s
      # A provider may ask for a module's fact before anything loaded the
      # fact files: they are loaded then, once.
      Marionette::CustomFacts.load unless custom.key?(name)
      return Marionette::CustomFacts.resolve(name) if custom.key?(name)

      facts = Marionette::Scope.current.lookupvar('facts')
      return nil unless facts.is_a?(Hash)

      name.split('.').reduce(facts) { |value, key| value.is_a?(Hash) ? value[key] : nil }
    end

    def fact(name)
      Fact.new(value(name))
    end
    alias [] fact

    def debug(*); end

    def warn(message)
      Marionette.log('warning', message.to_s)
    end

    def log_exception(error, message = nil)
      Marionette.log('err', (message || error.message).to_s)
    end

    def clear; end

    def reset; end
  end

  Fact = Struct.new(:value)

  module Core
    # Commands for facts: through a shell, as Facter runs them.
    module Execution
      def self.which(bin)
        Puppet::Util.which(bin.to_s)
      end

      # The agent's idea of the user is kept, as Facter keeps it (Puppet's
      # own commands go without HOME, USER and LOGNAME; rabbitmqctl, say,
      # needs HOME).
      USER_ENV = %w[HOME USER LOGNAME].freeze

      def self.execute(command, options = {})
        output, status = Marionette::Commands.run(['/bin/sh', '-c', command.to_s], ENV.to_h.slice(*USER_ENV), '', true)
        unless status == 0 # rubocop:disable Style/NumericPredicate: nil when a signal ended it
          raise ExecutionFailure, "Failed while executing '#{command}'" if options[:on_fail] == :raise
          return options.fetch(:on_fail, '') unless options.key?(:on_fail) && options[:on_fail].nil?

          return nil
        end
        output.strip
      rescue Errno::ENOENT
        raise ExecutionFailure, "Could not execute '#{command}'" if options[:on_fail] == :raise

        options.fetch(:on_fail, '')
      end

      def self.exec(command)
        output = execute(command, on_fail: nil)
        output.nil? || output.empty? ? nil : output
      end

      class ExecutionFailure < StandardError; end
    end
  end

  module Util
    module Resolution
      def self.exec(command)
        Facter::Core::Execution.exec(command)
      end

      def self.which(bin)
        Facter::Core::Execution.which(bin)
      end
    end
  end

  # One way of resolving a fact.
  class Resolution
    attr_reader :name, :options, :file

    def initialize(name, options)
      @name = name
      @options = options
      @file = Marionette::CustomFacts.loading
      @confines = []
      @weight = nil
      @chunks = {}
      @timeout = options[:timeout]
    end

    def confine(conditions = nil, &block)
      case conditions
      when Hash then conditions.each { |fact, values| @confines << [fact.to_s, values] }
      when nil then @confines << [nil, block]
      else @confines << [conditions.to_s, block]
      end
    end

    def has_weight(weight) # rubocop:disable Naming/PredicateName
      @weight = weight
    end

    def weight
      @weight || @confines.size
    end

    def timeout=(seconds)
      @timeout = seconds
    end

    def setcode(command = nil, &block)
      @code = command ? -> { Facter::Core::Execution.exec(command) } : block
    end

    def chunk(name, _options = {}, &block)
      @chunks[name] = block
    end

    def aggregate(&block)
      @aggregate = block
    end

    def suitable?
      @confines.all? do |fact, test|
        value = fact && Facter.value(fact)
        case test
        when Proc then fact ? test.call(value) : test.call
        when Array then test.any? { |t| matches?(value, t) }
        else matches?(value, test)
        end
      end
    end

    def matches?(value, test)
      case test
      when Regexp then test.match?(value.to_s)
      when Range then test.include?(value)
      when true, false then value == test
      else value.to_s.casecmp?(test.to_s)
      end
    end

    def value
      Timeout.timeout(@timeout || 30) do
        return aggregate_value unless @chunks.empty?

        @code&.call
      end
    end

    # An aggregate fact: its chunks' results, merged as Facter merges
    # them (hashes deeply, arrays joined) unless it aggregates itself.
    def aggregate_value
      results = {}
      @chunks.each { |name, block| results[name] = block.call }
      return @aggregate.call(results) if @aggregate

      results.values.reduce { |a, b| merge(a, b) }
    end

    def merge(a, b)
      if a.is_a?(Hash) && b.is_a?(Hash)
        a.merge(b) { |_, x, y| merge(x, y) }
      elsif a.is_a?(Array) && b.is_a?(Array)
        a + b
      else
        b
      end
    end
  end
end

module Marionette
  module CustomFacts
    # How many custom facts resolve at once: their commands run side by
    # side (apt's two simulated upgrades), their Ruby in turn.
    WORKERS = 4

    # Guards which thread resolves which fact, and what runs.
    LOCK = Mutex.new

    class << self
      # The facts this thread is resolving, innermost last.
      def resolving
        Thread.current[:marionette_resolving] ||= []
      end

      # Which thread resolves each fact now.
      def owners
        @owners ||= {}
      end

      # The fact file being loaded.
      attr_reader :loading

      # Tells the engine what runs now, so that a host stopping there is
      # reported by it: the innermost fact (with its resolution's file) or
      # file of the thread that has been at it longest.
      def running(announced)
        stack = (Thread.current[:marionette_announced] ||= [])
        LOCK.synchronize do
          active << stack if stack.empty?
          stack.push(announced)
          Marionette.engine.running(active.first.last)
        end
        yield
      ensure
        LOCK.synchronize do
          stack.pop
          active.delete_if { |s| s.equal?(stack) } if stack.empty?
          Marionette.engine.running(active.first&.last || {})
        end
      end

      # The threads' stacks of what they run, oldest first.
      def active
        @active ||= []
      end

      def values
        @values ||= {}
      end

      # A custom fact's value: its suitable resolutions by weight, the
      # first value that is not nil.
      def resolve(name)
        return values[name] if values.key?(name)
        return nil if resolving.include?(name) || Marionette.skipped_facts.include?(name)
        # Another thread resolving it, which waits for this one: a circle,
        # as within one thread.
        return nil unless claim(name)

        begin
          return values[name] if values.key?(name)

          resolved(name)
        ensure
          LOCK.synchronize { owners.delete(name) }
        end
      end

      # Makes this thread the one resolving `name`, once no other is;
      # false when the other waits, in the end, for this one.
      def claim(name)
        me = Thread.current
        loop do
          LOCK.synchronize do
            owner = owners[name]
            if owner.nil?
              owners[name] = me
              me[:marionette_waiting] = nil
              return true
            end
            if waits_for?(owner, me)
              me[:marionette_waiting] = nil
              return false
            end
            me[:marionette_waiting] = name
          end
          sleep 0.002
        end
      end

      # Whether `thread` waits for a fact `me` resolves, through any
      # number of others.
      def waits_for?(thread, me)
        seen = []
        while thread && !seen.include?(thread)
          seen << thread
          wanted = thread[:marionette_waiting] or return false
          thread = owners[wanted]
          return true if thread.equal?(me)
        end
        false
      end

      def resolved(name)
        resolving.push(name)
        value = nil
        Facter.custom[name].sort_by { |r| -r.weight }.each do |resolution|
          value = running('fact' => name, 'file' => resolution.file.to_s) do
            resolution.suitable? ? resolution.value : nil
          end
          break unless value.nil?
        rescue StandardError, Timeout::Error => e
          # Facter's words, which name the resolution (`name:` of its
          # options) or call it anonymous.
          label = resolution.options[:name] || '<anonymous>'
          Marionette.log('err', "Facter: Error while resolving custom fact fact='#{name}', resolution='#{label}': #{e.message}")
        end
        values[name] = value
      ensure
        resolving.pop
      end

      # Loads the environment's fact files (Marionette.fact_files), once
      # per host: a file that fails to load is reported by name, and the
      # others still resolve. Says what failed, the first time only.
      def load
        return [] if @loaded

        @loaded = true
        Facter.custom.clear
        values.clear
        Array(Marionette.fact_files).filter_map do |file|
          @loading = file
          running('file' => file) { Kernel.load(file) }
          nil
        rescue ScriptError, StandardError => e
          { 'file' => file, 'message' => "#{e.class}: #{e.message}" }
        ensure
          @loading = nil
        end
      end

      # Resolves every fact the files add, the files loaded anew (an
      # agent's plugin sync may have changed them since the last run),
      # but those `cached` (Facter's cache has their values): as in Facter,
      # such a fact still resolves when another one asks for it. Several
      # resolve at once unless `serial`.
      def collect(cached = [], serial: false)
        @loaded = false
        errors = load
        names = Facter.custom.keys - cached
        return in_turn(names, errors) if serial

        found = {}
        failed = {}
        queue = Queue.new
        names.each { |name| queue << name }
        queue.close
        workers = Array.new([WORKERS, names.size].min) do
          Thread.new do
            Thread.current[:marionette_fact_worker] = true
            Thread.current.report_on_exception = false
            while (name = queue.pop)
              begin
                found[name] = encode(resolve(name))
              rescue WireError => e
                failed[name] = e.message
              end
            end
          end
        end
        # A worker's fatal error (the protocol broke) is raised here.
        workers.each(&:join)
        facts = names.each_with_object({}) { |name, all| all[name] = found[name] }
        names.each { |name| errors << { 'file' => name, 'message' => failed[name] } if failed.key?(name) }
        { 'facts' => facts.compact, 'errors' => errors }
      end

      # Resolves `names` one after the other on this thread, their
      # commands run by the engine.
      def in_turn(names, errors)
        facts = {}
        names.each do |name|
          facts[name] = encode(resolve(name))
        rescue WireError => e
          errors << { 'file' => name, 'message' => e.message }
        end
        { 'facts' => facts.compact, 'errors' => errors }
      end

      # Resolves one fact, for a compile that reads it: nothing else is
      # resolved (a fact's own code may ask for others).
      def fetch(name)
        errors = load
        value = Facter.custom.key?(name) ? encode(resolve(name)) : nil
        { 'value' => value, 'errors' => errors }
      end

      def encode(value)
        value.nil? ? nil : Wire.encode(value.is_a?(Symbol) ? value.to_s : value)
      end
    end
  end
end
