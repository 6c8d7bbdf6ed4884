# Puppet's model of INI files (Puppet::Util::IniConfig), which module
# providers build on (yumrepo_core's yumrepo, zypprepo's zypprepo): files
# of `[section]`s holding `key=value` entries, read keeping every comment
# and blank line where it was, and written back whole, and only when a
# section changed. A collection gathers several files, and a section's
# name is unique across them.

module Puppet
  module Util
    module IniConfig
      # A line no grammar rule reads, or a section defined twice.
      class IniParseError < Puppet::Error
        attr_accessor :file, :line

        def initialize(message, file = nil, line = nil)
          super(message)
          @file = file
          @line = line
        end
      end

      # One `[name]` and what follows it: `[key, value]` pairs, and the
      # comment and blank lines kept as text.
      class Section
        attr_reader :name, :file, :entries
        attr_writer :destroy

        def initialize(name, file)
          @name = name
          @file = file
          @entries = []
          @dirty = false
          @destroy = false
        end

        def dirty?
          @dirty || @destroy
        end

        def mark_dirty
          @dirty = true
        end

        def mark_clean
          @dirty = false
        end

        def destroy?
          @destroy
        end

        # A line kept as it is (a comment, a blank line).
        def add_line(line)
          @entries << line
        end

        def [](key)
          pair(key)&.last
        end

        # Sets a key, in its place when it is there, else at the end; nil
        # leaves it out when the section is written.
        def []=(key, value)
          @dirty = true
          found = pair(key)
          if found
            found[1] = value
          else
            @entries << [key, value]
          end
        end

        def format
          return '' if @destroy

          @entries.each_with_object(+"[#{@name}]\n") do |entry, text|
            if entry.is_a?(Array)
              text << "#{entry[0]}=#{entry[1]}\n" unless entry[1].nil?
            else
              text << entry
            end
          end
        end

        private

        def pair(key)
          @entries.find { |entry| entry.is_a?(Array) && entry[0] == key }
        end
      end

      # One file: the lines before its first section, then its sections.
      class PhysicalFile
        attr_reader :contents, :filetype
        attr_accessor :destroy_empty, :file_collection

        # What a line can be: nothing, a comment (`#`, `;`, `rem`), the
        # rest of the previous value (it starts with a blank), a section's
        # name, or a key and its value.
        NOTHING_OR_COMMENT = /\A(\s*\z|[#;]|\s*rem\s)/i
        CONTINUED = /\A[ \t\r\n\f]/
        SECTION = /\A\[([^\]]+)\]/
        ENTRY = /\A\s*([^\s=]+)\s*=\s*(.*)\z/

        def initialize(file, options = {})
          @file = file
          @contents = []
          @filetype = Puppet::Util::FileType::Flat.new(file)
          @destroy_empty = options.fetch(:destroy_empty, false)
        end

        def read
          raise IniParseError, "Cannot read nonexistent file #{@file.inspect}" unless ::File.exist?(@file)

          parse(::File.read(@file))
        end

        def parse(text)
          section = nil
          last_key = nil
          text.each_line.with_index(1) do |line, number|
            if line.match?(NOTHING_OR_COMMENT)
              section ? section.add_line(line) : @contents << line
            elsif section && last_key && line.match?(CONTINUED)
              section[last_key] += "\n#{line.chomp}"
            elsif (found = line.match(SECTION))
              section&.mark_clean
              section = add_section(found[1])
              last_key = nil
            elsif (found = line.chomp.match(ENTRY))
              key = found[1]
              raise IniParseError, "Property with key #{key.inspect} outside of a section" unless section

              section[key] = found[2].rstrip
              last_key = key
            else
              raise IniParseError.new("Can't parse line '#{line.chomp}'", @file, number)
            end
          end
          section&.mark_clean
        end

        def sections
          @contents.grep(Section)
        end

        def get_section(name)
          sections.find { |section| section.name == name }
        end

        def format
          @contents.each_with_object(+'') do |content, text|
            text << (content.is_a?(Section) ? content.format : content)
          end
        end

        # Writes the file when a section changed; removes it when asked to
        # and no section is left.
        def store
          if @destroy_empty && sections.all?(&:destroy?)
            ::File.unlink(@file) if ::File.exist?(@file)
          elsif sections.any?(&:dirty?)
            @filetype.write(format)
          end
          sections.each(&:mark_clean)
        end

        def add_section(name)
          if get_section(name) || @file_collection&.get_section(name)
            raise IniParseError.new("Section #{name.inspect} is already defined, cannot redefine", @file)
          end

          Section.new(name, @file).tap { |section| @contents << section }
        end
      end

      # Several files, by path.
      class FileCollection
        attr_reader :files

        def initialize
          @files = {}
        end

        def read(file)
          physical(file, fresh: true).read
        end

        def store
          @files.each_value(&:store)
        end

        def each_section(&block)
          @files.each_value { |file| file.sections.each(&block) }
        end

        def each_file(&block)
          @files.each_key(&block)
        end

        # The last file's section of that name.
        def get_section(name)
          @files.values.map { |file| file.get_section(name) }.compact.last
        end
        alias [] get_section

        def include?(name)
          !get_section(name).nil?
        end

        def add_section(name, file)
          physical(file).add_section(name)
        end

        private

        def physical(file, fresh: false)
          return @files[file] if @files.key?(file) && !fresh

          @files[file] = PhysicalFile.new(file).tap { |made| made.file_collection = self }
        end
      end

      File = FileCollection
    end
  end
end
