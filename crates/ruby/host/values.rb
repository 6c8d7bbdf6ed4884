# Values as Marionette sends them, and the Ruby classes that stand for the
# Puppet values Ruby has no class of its own for. A value crosses the pipe
# as JSON; what plain JSON cannot say (default, regexes, Sensitive, time,
# binaries, types, hashes whose keys are not strings) travels as
# {"__ptype": NAME, "__pvalue": DATA}, so nothing is lost either way.

require 'json'
# Puppet itself loads these; modules' Ruby uses them without a require
# (augeas's provider splits on `$INPUT_RECORD_SEPARATOR`, English's name
# for `$/`). The libraries whose constants are all a module names are
# loaded when first used, so that starting the host stays cheap (`Digest`
# loads `Digest::MD5` and the others as they are named).
require 'English'
{
  YAML: 'yaml', IPAddr: 'ipaddr', StringScanner: 'strscan', FileUtils: 'fileutils',
  Tempfile: 'tempfile', Shellwords: 'shellwords', URI: 'uri', Pathname: 'pathname',
  Base64: 'base64', SecureRandom: 'securerandom', Open3: 'open3', Find: 'find',
  Etc: 'etc', Zlib: 'zlib', OpenSSL: 'openssl', Socket: 'socket', Timeout: 'timeout',
  ERB: 'erb', Set: 'set', Digest: 'digest'
}.each { |name, library| autoload(name, library) unless Object.const_defined?(name, false) }

# `Pathname(path)`, which Pathname's library adds to every object, loads
# it when first called, as its constant does.
module Kernel
  private

  def Pathname(path)
    require 'pathname'
    Pathname(path)
  end
end

# `to_set`, and the methods `time` adds to Time (`Time.parse`,
# `Time#iso8601`...), load their library when first called, which then
# replaces these with its own.
module Enumerable
  def to_set(*args, &block)
    require 'set'
    to_set(*args, &block)
  end
end
unless $LOADED_FEATURES.any? { |feature| feature.end_with?('/time.rb') }
  class Time
    %i[parse strptime rfc2822 rfc822 httpdate xmlschema iso8601 zone_offset].each do |name|
      define_singleton_method(name) do |*args, &block|
        require 'time'
        public_send(name, *args, &block)
      end
    end
    %i[rfc2822 rfc822 httpdate xmlschema iso8601].each do |name|
      define_method(name) do |*args, &block|
        require 'time'
        public_send(name, *args, &block)
      end
    end
  end
end

module Puppet
  module Pops
    module Types
      # A Puppet type, kept as its text: the engine owns the type system,
      # and asks are sent back to it.
      class PAnyType
        attr_reader :text, :id

        # `id` numbers a type the engine sent, so it gets the very type back.
        def initialize(text, id = nil)
          @text = text
          @id = id
        end

        def to_s
          @text
        end
        alias inspect to_s
        alias name to_s

        def ==(other)
          other.is_a?(PAnyType) && other.text == @text
        end
        alias eql? ==

        def hash
          @text.hash
        end

        def instance?(value, _guard = nil)
          Marionette.engine.call('instance', { 'type' => @text, 'value' => Marionette::Wire.encode(value) })['result']
        end

        def assignable?(other, _guard = nil)
          Marionette.engine.call('assignable', { 'type' => @text, 'other' => other.to_s })['result']
        end
      end

      # Types are asked for by text; every name resolves to one class here.
      class TypeParser
        def self.singleton
          @singleton ||= new
        end

        def parse(text, _context = nil)
          PAnyType.new(text.to_s)
        end
      end

      class TypeFactory
        def self.type_of(value)
          TypeCalculator.infer(value)
        end
      end

      class TypeCalculator
        def self.singleton
          @singleton ||= new
        end

        def self.infer(value)
          singleton.infer(value)
        end

        def infer(value)
          text = Marionette.engine.call('infer', { 'value' => Marionette::Wire.encode(value) })['type']
          PAnyType.new(text)
        end
        alias infer_set infer

        def self.instance?(type, value)
          type = TypeParser.singleton.parse(type) unless type.is_a?(PAnyType)
          type.instance?(value)
        end

        def self.assignable?(type, other)
          type.assignable?(other)
        end
      end

      # What Puppet's iteration functions iterate over: a hash's pairs
      # (hash-style), an array's items, an integer's count from 0, a
      # string's characters. stdlib's merge iterates so.
      module Iterable
        # An Enumerable that knows whether it yields pairs.
        class Enumeration
          include Enumerable

          def initialize(items, hash_style)
            @items = items
            @hash_style = hash_style
          end

          def hash_style?
            @hash_style
          end

          def each(&block)
            return to_enum(:each) unless block

            @items.each(&block)
          end

          # The next item, as an external enumerator gives it (StopIteration
          # at the end).
          def next
            (@cursor ||= @items.each).next
          end
        end

        def self.on(value, _element_type = nil, _strict = false)
          case value
          when Hash then Enumeration.new(value.to_a, true)
          when Array then Enumeration.new(value, false)
          when Integer then Enumeration.new(value.positive? ? (0...value).to_a : [], false)
          when String then Enumeration.new(value.chars, false)
          end
        end

        def self.asserted_iterable(my_caller, value, infer_elements = false)
          iterable = on(value, nil, infer_elements)
          return iterable if iterable

          name = my_caller.respond_to?(:class) && my_caller.class.respond_to?(:name) ? my_caller.class.name : 'function'
          raise ArgumentError, "#{name}(): wrong argument type (#{value.class}; is not Iterable."
        end
      end

      class PSensitiveType < PAnyType
        class Sensitive
          def initialize(value)
            @value = value
          end

          def unwrap
            @value
          end

          def to_s
            'Sensitive [value redacted]'
          end
          alias inspect to_s

          def ==(other)
            other.is_a?(Sensitive) && other.unwrap == @value
          end
        end
      end

      class PBinaryType < PAnyType
        class Binary
          attr_reader :binary_buffer

          def self.from_base64(text)
            new(text.unpack1('m'))
          end

          def self.from_binary_string(bytes)
            new(bytes)
          end

          def initialize(bytes)
            @binary_buffer = bytes.dup.force_encoding(Encoding::BINARY)
          end

          def to_s
            [@binary_buffer].pack('m0')
          end

          def length
            @binary_buffer.length
          end

          def ==(other)
            other.is_a?(Binary) && other.binary_buffer == @binary_buffer
          end
        end
      end
    end

    module Serialization
      # Values as data: what JSON can hold passes as it is; with rich data,
      # the others become Puppet's `__ptype`/`__pvalue` hashes (as the
      # engine's wire carries them), else their text. stdlib's to_python
      # and to_ruby convert so before printing.
      class ToDataConverter
        def self.convert(value, options = {})
          new(options).convert(value)
        end

        def initialize(options = {})
          @rich_data = options[:rich_data] ? true : false
        end

        def convert(value)
          case value
          when nil, true, false, String, Integer, Float then value
          when Symbol then value == :undef ? nil : value.to_s
          when Array then value.map { |item| convert(item) }
          when Hash
            if value.keys.all?(String)
              value.to_h { |key, item| [key, convert(item)] }
            elsif @rich_data
              { '__ptype' => 'Hash', '__pvalue' => value.flat_map { |key, item| [convert(key), convert(item)] } }
            else
              value.to_h { |key, item| [key.to_s, convert(item)] }
            end
          else
            @rich_data ? Marionette::Wire.encode(value) : value.to_s
          end
        end
      end
    end

    module Time
      # Nanoseconds, as the engine keeps them.
      class TimeData
        include Comparable
        attr_reader :nsecs

        def initialize(nsecs)
          @nsecs = nsecs
        end

        def <=>(other)
          other.is_a?(TimeData) ? @nsecs <=> other.nsecs : nil
        end

        def to_f
          @nsecs.fdiv(1_000_000_000)
        end

        def to_i
          @nsecs / 1_000_000_000
        end
      end

      class Timespan < TimeData
        def to_s
          Marionette.engine.call('format', { 'value' => Marionette::Wire.encode(self) })['text']
        end
      end

      class Timestamp < TimeData
        def self.now
          new((::Time.now.to_r * 1_000_000_000).to_i)
        end

        def to_s
          Marionette.engine.call('format', { 'value' => Marionette::Wire.encode(self) })['text']
        end
      end
    end
  end
end

module SemanticPuppet
  # Versions and ranges keep their text; comparisons go to the engine.
  class VersionRange
    attr_reader :text

    def self.parse(text)
      new(text.to_s)
    end

    def initialize(text)
      @text = text
    end

    def to_s
      @text
    end
  end

  class Version < VersionRange
    include Comparable

    def <=>(other)
      Marionette.engine.call('compare_versions', { 'a' => @text, 'b' => other.to_s })['result']
    end
  end
end

module Marionette
  # A deferred call, carried through Ruby untouched.
  class Deferred
    attr_reader :data

    def initialize(data)
      @data = data
    end
  end

  # A resource reference as 3.x functions see them (Puppet::Resource).
  class ResourceRef
    attr_reader :type, :title

    def initialize(type, title)
      @type = type
      @title = title
    end

    def to_s
      "#{@type.split('::').map(&:capitalize).join('::')}[#{@title}]"
    end
    alias ref to_s
    alias inspect to_s

    def ==(other)
      other.is_a?(ResourceRef) && other.to_s == to_s
    end
  end

  # Why a value could not cross to the engine.
  class WireError < StandardError; end

  module Wire
    MAX_INTEGER = 0x7fff_ffff_ffff_ffff
    MIN_INTEGER = -0x8000_0000_0000_0000

    module_function

    def decode(data)
      case data
      when Array
        data.map { |item| decode(item) }
      when Hash
        type = data['__ptype']
        return data.each_with_object({}) { |(k, v), h| h[k] = decode(v) } if type.nil?
        return Puppet::Pops::Types::PAnyType.new(data['__pvalue'], data['id']) if type == 'Type'

        decode_rich(type, data['__pvalue'])
      else
        data
      end
    end

    def decode_rich(type, value)
      case type
      when 'Default' then :default
      when 'Hash' then value.each_slice(2).each_with_object({}) { |(k, v), h| h[decode(k)] = decode(v) }
      when 'Sensitive' then Puppet::Pops::Types::PSensitiveType::Sensitive.new(decode(value))
      when 'Regexp' then Regexp.new(value)
      when 'Timespan' then Puppet::Pops::Time::Timespan.new(value)
      when 'Timestamp' then Puppet::Pops::Time::Timestamp.new(value)
      when 'Binary' then Puppet::Pops::Types::PBinaryType::Binary.from_base64(value)
      when 'SemVer' then SemanticPuppet::Version.new(value)
      when 'SemVerRange' then SemanticPuppet::VersionRange.new(value)
      when 'Deferred' then Deferred.new(value)
      when 'ResourceRef' then ResourceRef.new(value[0], value[1])
      else raise WireError, "unknown value kind #{type}"
      end
    end

    def encode(value)
      case value
      when nil, true, false then value
      when String
        unless value.valid_encoding? || value.encoding == Encoding::BINARY
          raise WireError, "a String that is not valid #{value.encoding}: #{value.inspect}"
        end

        value.encoding == Encoding::UTF_8 ? value : value.dup.force_encoding(Encoding::UTF_8)
      when Integer
        raise WireError, "an Integer out of Puppet's range, got '0x#{value.to_s(16)}'" if value > MAX_INTEGER || value < MIN_INTEGER

        value
      when Float
        raise WireError, "a Float that is not a number: #{value}" unless value.finite?

        value
      when Symbol
        case value
        when :undef then nil
        when :default then rich('Default', nil)
        else value.to_s
        end
      when Array then value.map { |item| encode(item) }
      when Hash
        if value.keys.all? { |k| k.is_a?(String) } && !value.key?('__ptype')
          value.each_with_object({}) { |(k, v), h| h[encode(k)] = encode(v) }
        else
          rich('Hash', value.flat_map { |k, v| [encode(k), encode(v)] })
        end
      when Regexp then rich('Regexp', value.source)
      when Puppet::Pops::Types::PSensitiveType::Sensitive then rich('Sensitive', encode(value.unwrap))
      when Puppet::Pops::Types::PBinaryType::Binary then rich('Binary', value.to_s)
      when Puppet::Pops::Time::Timespan then rich('Timespan', value.nsecs)
      when Puppet::Pops::Time::Timestamp then rich('Timestamp', value.nsecs)
      when Puppet::Pops::Types::PAnyType then rich('Type', value.text).merge('id' => value.id)
      when ResourceRef, Puppet::Parser::Scope::Resource
        # A reference (what stdlib's str2resource returns), as the engine
        # sends one: the type in lower case, a class's title too.
        type = value.type.to_s.downcase
        rich('ResourceRef', [type, type == 'class' ? value.title.to_s.downcase : value.title.to_s])
      when SemanticPuppet::Version then rich('SemVer', value.text)
      when SemanticPuppet::VersionRange then rich('SemVerRange', value.text)
      when Deferred then rich('Deferred', value.data)
      when Set then value.map { |item| encode(item) }
      when Numeric then encode(value.to_f)
      else raise WireError, "a value of the Ruby class #{value.class}, which Puppet has no type for"
      end
    end

    def rich(type, value)
      { '__ptype' => type, '__pvalue' => value }
    end

    # Arguments as 3.x functions receive them: undef is '' at the top and
    # nil inside, regexes and versions are text. (The engine sends types
    # naming a resource as references already.)
    def to_3x(value, top = true)
      case value
      when nil then top ? '' : nil
      when :undef then top ? '' : nil
      when Array then value.map { |item| to_3x(item, false) }
      when Hash then value.each_with_object({}) { |(k, v), h| h[to_3x(k, false)] = to_3x(v, false) }
      when Regexp then value.inspect
      when SemanticPuppet::Version, SemanticPuppet::VersionRange, Puppet::Pops::Types::PBinaryType::Binary,
           Puppet::Pops::Time::Timespan, Puppet::Pops::Time::Timestamp
        value.to_s
      else value
      end
    end
  end
end
