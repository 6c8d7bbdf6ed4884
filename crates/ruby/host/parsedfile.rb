# Puppet's base class for providers that keep their resources as lines of
# a file (Puppet::Provider::ParsedFile), with the line grammar it is built
# on (Puppet::Util::FileParsing): `text_line`s kept as they are, and
# `record_line`s split into fields (by a regex or a separator) and joined
# back (by a joiner, or the record's own `to_line`). Every resource of a
# file is read in one prefetch, and the file is written whole when one of
# them changes, as Puppet does. Files only: the crontab file types belong
# to the cron type, which Marionette implements natively.

module Puppet
  module Util
    # How a provider reads and writes its target: only plain files.
    module FileType
      class FileReadError < Puppet::Error; end

      # A plain file, replaced through a file beside it so that a reader
      # never sees half of it; an existing file keeps its mode and owner,
      # a new one is private unless the provider says otherwise (Puppet's
      # is made from a private temporary file too).
      class Flat
        attr_reader :path

        def initialize(path, default_mode = nil)
          @path = path.to_s
          @default_mode = default_mode
        end

        # The text without the header lines ParsedFile writes, which it
        # writes anew.
        def read
          File.exist?(@path) ? File.read(@path).gsub(/# HEADER.*\n/, '') : nil
        rescue SystemCallError => e
          raise FileReadError, "Could not read #{@path}: #{e.message}"
        end

        def write(text)
          # Through a link to the file it names, as Puppet writes through
          # it, rather than over the link.
          path = File.exist?(@path) ? File.realpath(@path) : @path
          existing = File.exist?(path) ? File.stat(path) : nil
          partial = File.join(File.dirname(path), ".#{File.basename(path)}.marionette-#{Process.pid}")
          File.open(partial, File::WRONLY | File::CREAT | File::EXCL, 0o600) { |f| f.write(text) }
          if existing
            File.chmod(existing.mode & 0o7777, partial)
            File.chown(existing.uid, existing.gid, partial) if Process.uid.zero?
          elsif @default_mode
            File.chmod(@default_mode, partial)
          end
          File.rename(partial, path)
        rescue SystemCallError => e
          # Named as Puppet's flat file type names it: the file, not the
          # temporary one it is written through.
          raise Puppet::Error, "Puppet::Util::FileType::FileTypeFlat could not write #{@path}: " \
                               "#{e.class.new.message} @ rb_sysopen - #{@path}"
        ensure
          File.unlink(partial) if partial && File.exist?(partial)
        end
      end

      def self.filetype(name)
        name.to_s == 'flat' ? Flat : nil
      end
    end

    # The grammar of a parsed file's lines.
    module FileParsing
      # One kind of line: text kept whole, or a record of fields.
      class FileRecord
        attr_accessor :absent, :joiner, :rts, :separator, :rollup, :name, :match, :block_eval
        attr_reader :fields, :optional, :type

        def initialize(type, options = {}, &block)
          @type = type.to_sym
          options.each do |key, value|
            case key.to_sym
            when :fields then @fields = value.map(&:to_sym)
            when :optional then @optional = value.map(&:to_sym)
            when :post_parse, :pre_gen, :to_line then define_singleton_method(key.to_sym, &value)
            else instance_variable_set("@#{key}", value)
            end
          end
          if @type == :record
            @absent ||= ''
            @separator ||= /\s+/
            @joiner ||= ' '
            @optional ||= []
            @rollup = true if @rollup.nil?
          end
          return unless block

          @block_eval ||= :process
          if @block_eval == :instance
            instance_eval(&block)
          else
            define_singleton_method(@block_eval, &block)
          end
        end

        def text?
          @type == :text
        end

        # The fields joined into a line; an absent optional field is
        # written as the record's `absent` text.
        def join(details)
          fields.map do |field|
            value = details[field]
            if value.nil? || value == :absent || value == [:absent]
              raise ArgumentError, "Field '#{field}' is required" unless optional.include?(field)

              absent
            else
              value.to_s
            end
          end.compact.join(joiner)
        end
      end

      attr_writer :line_separator, :trailing_separator

      def text_line(name, options = {}, &block)
        raise ArgumentError, 'You must provide a :match regex for text lines' unless options.key?(:match)

        add_line_type(FileRecord.new(:text, options, &block), name)
      end

      def record_line(name, options = {}, &block)
        raise ArgumentError, 'Must include a list of fields' unless options.key?(:fields)

        add_line_type(FileRecord.new(:record, options, &block), name)
      end

      def line_separator
        @line_separator ||= "\n"
      end

      def trailing_separator
        defined?(@trailing_separator) ? @trailing_separator : true
      end

      def record_type(name)
        (@record_types || {})[name.to_sym]
      end

      def fields(type)
        record_type(type)&.fields&.dup
      end

      def valid_attr?(type, attr)
        record = record_type(type)
        (record && record.fields&.include?(attr.to_sym)) || attr.to_sym == :ensure
      end

      # Each line as the first line type that takes it, numbered from 1.
      def parse(text)
        text.split(line_separator).each_with_index.map do |line, index|
          parse_line(line) or raise Puppet::ResourceError, "Could not parse line #{line.inspect} (line #{index + 1})"
        end
      end

      def parse_line(line)
        (@record_order || []).each do |record|
          found = record.text? ? text_record(line, record) : fields_record(line, record)
          next unless found

          record.post_parse(found) if record.respond_to?(:post_parse)
          return found
        end
        nil
      end

      def to_file(records)
        text = records.map { |record| to_line(record) }.join(line_separator)
        trailing_separator ? text + line_separator : text
      end

      def to_line(details)
        record = record_type(details[:record_type]) or
          raise ArgumentError, "Invalid record type #{details[:record_type].inspect}"
        if record.respond_to?(:pre_gen)
          details = details.dup
          record.pre_gen(details)
        end
        return details[:line] if record.text?
        return record.to_line(details) if record.respond_to?(:to_line)

        line = record.join(details)
        trailing = record.rts == true ? /\s+$/ : record.rts
        trailing ? line.sub(trailing, '') : line
      end

      private

      def add_line_type(record, name)
        record.name = name.to_sym
        @record_types ||= {}
        @record_order ||= []
        raise ArgumentError, "Line type #{record.name} is already defined" if @record_types.key?(record.name)

        @record_types[record.name] = record
        @record_order << record
        record
      end

      def text_record(line, record)
        record.match.match?(line) ? { record_type: record.name, line: line } : nil
      end

      def fields_record(line, record)
        found = if record.respond_to?(:process)
                  record.process(line.dup) or return nil
                elsif record.match
                  captures = record.match.match(line)&.captures or return nil
                  record.fields.zip(captures).to_h { |field, value| [field, value == record.absent ? :absent : value] }
                else
                  split_fields(line, record)
                end
        raise Puppet::DevError, "Process record type #{record.name} returned non-hash" unless found.is_a?(Hash)

        found.merge(record_type: record.name)
      end

      def split_fields(line, record)
        separator = record.separator == ' ' ? / / : record.separator
        values = line.split(separator)
        found = record.fields.to_h do |field|
          value = values.shift
          [field, value.nil? || value == record.absent ? :absent : value]
        end
        if record.rollup && !values.empty?
          last = record.fields.last
          found[last] = ([found[last]] + values).join(record.joiner)
        end
        found
      end
    end
  end

  class Provider
    # Puppet's provider of resources kept as the records of files.
    class ParsedFile < Puppet::Provider
      extend Puppet::Util::FileParsing

      class << self
        attr_accessor :default_target, :raise_prefetch_errors

        def filetype
          @filetype ||= Puppet::Util::FileType::Flat
        end

        def filetype=(type)
          @filetype = type.is_a?(Class) ? type : Puppet::Util::FileType.filetype(type)
          raise ArgumentError, "Invalid filetype #{type}" unless @filetype
        end

        # Called by `provide` once the class knows its type.
        def initvars
          @records = []
          @target_objects = {}
          @modified = []
          mk_resource_methods
        end

        # Getters of a record's fields and setters that mark its file for
        # writing.
        def mk_resource_methods
          resource_type.attributes.each do |attr|
            name = attr[:name].to_sym
            define_method(name) do
              if @property_hash[name] || self.class.valid_attr?(self.class.name, name)
                @property_hash[name] || :absent
              else
                @resource&.should(name)
              end
            end
            define_method("#{name}=") do |value|
              mark_target_modified
              @property_hash[name] = value
            end
          end
          own_getters_made
        end

        def header
          "# HEADER: This file was autogenerated at #{Time.now}\n" \
            "# HEADER: by puppet.  While it can still be managed manually, it\n" \
            "# HEADER: is definitely not recommended.\n"
        end

        def native_header_regex
          nil
        end

        def drop_native_header
          false
        end

        def default_mode
          nil
        end

        def instances
          targets.flat_map { |target| prefetch_target(target) }
                 .reject { |record| skip_record?(record) }
                 .map { |record| new(record) }
        end

        # Every record of every file the resources name, each resource
        # given the provider of its record.
        def prefetch(resources = nil)
          @records = targets(resources).flat_map { |target| prefetch_target(target) }
          return unless resources

          matchers = resources.dup
          @records.each do |record|
            next if skip_record?(record)

            resource = record[:name] && resources[record[:name]]
            if resource.nil? && respond_to?(:match)
              resource = match(record, matchers)
              next unless resource

              matchers.delete(resource.title)
              record[:name] = resource[:name]
            end
            resource.provider = new(record) if resource
          end
        end

        def prefetch_target(target)
          records = begin
            retrieve(target)
          rescue Puppet::Util::FileType::FileReadError => e
            Puppet.err("Could not prefetch #{resource_type.name} provider '#{name}' target '#{target}': #{e.message}. Treating as empty")
            []
          end
          records.each do |record|
            record[:on_disk] = true
            record[:target] = target
            record[:ensure] = :present
          end
          records = prefetch_hook(records) if respond_to?(:prefetch_hook)
          records
        end

        def retrieve(path)
          text = target_object(path).read
          text.nil? || text.empty? ? [] : parse(text)
        end

        def record?(name)
          @records&.find { |record| record[:name] == name }
        end

        def skip_record?(record)
          record_type(record[:record_type]).text?
        end

        def target_object(target)
          @target_objects ||= {}
          @target_objects[target] ||= default_mode ? filetype.new(target, default_mode) : filetype.new(target)
        end

        def target_records(target)
          @records.select { |record| record[:target] == target }
        end

        def targets(resources = nil)
          raise Puppet::DevError, 'Parsed Providers must define a default target' unless default_target

          found = [default_target] + (@target_objects || {}).keys
          (resources || {}).each_value do |resource|
            target = resource.should(:target)
            found << target if target
          end
          found.compact.uniq
        end

        def modified(target)
          @modified ||= []
          @modified << target unless @modified.include?(target)
        end

        # Writes every modified file; the record is added to its file's
        # records first if it is new.
        def flush(record)
          unless record[:on_disk]
            record[:on_disk] = true
            @records << record
            modified(record[:target] || default_target)
          end
          @modified.sort_by(&:to_s).uniq.each { |target| flush_target(target) }
          @modified.clear
        end

        def flush_target(target)
          records = target_records(target).reject { |record| record[:ensure] == :absent }
          target_object(target).write(to_file(records))
        end

        # The file's text: the header first, after a header of another
        # tool's that the provider recognises (or without it).
        def to_file(records)
          text = super
          if native_header_regex && (found = text.match(native_header_regex))
            return found.pre_match + found.post_match if drop_native_header

            return found[0] + header + found.pre_match + found.post_match
          end
          header + text
        end
      end

      # A provider made from a record keeps that very hash, so that its
      # setters change the record its file is written from; one made for
      # a resource finds the resource's record, if the file has one.
      def initialize(record = {})
        if record.is_a?(Hash)
          super({})
          @property_hash = record
        else
          super
          @property_hash = self.class.record?(resource[:name]) || { record_type: self.class.name, ensure: :absent }
        end
      end

      def exists?
        !(@property_hash[:ensure] == :absent || @property_hash[:ensure].nil?)
      end

      def create
        resource.class.attributes.each do |attr|
          value = resource.should(attr[:name])
          @property_hash[attr[:name].to_sym] = value if value
        end
        mark_target_modified
        :"#{resource.class.type_name}_created"
      end

      def destroy
        self.ensure = :absent
        :"#{resource.class.type_name}_deleted"
      end

      def ensure=(value)
        mark_target_modified
        @property_hash[:ensure] = value
      end

      def flush
        unless @property_hash[:target]
          @property_hash[:target] = resource.should(:target) || self.class.default_target
          self.class.modified(@property_hash[:target])
        end
        resource.class.key_attributes.each { |attr| @property_hash[attr] ||= resource[attr] }
        self.class.flush(@property_hash)
      end

      def record_type
        @property_hash[:record_type]
      end

      private

      def mark_target_modified
        wanted = resource&.should(:target)
        self.class.modified(wanted) if wanted && wanted != @property_hash[:target]
        target = @property_hash[:target]
        self.class.modified(target) if target && target != :absent
      end
    end
  end
end
