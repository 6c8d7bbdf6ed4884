# Puppet's file system façade (Puppet::FileSystem), as module code calls
# it (yumrepo_core's and zypprepo's providers, extlib's functions): paths
# given as strings or Pathnames, answered by Ruby's own File and Dir.
# Pathname and FileUtils load when first named (values.rb): FileUtils
# alone would add a third to the host's start.

module Puppet
  module FileSystem
    class << self
      def pathname(path)
        path.is_a?(::Pathname) ? path : ::Pathname.new(path.to_s)
      end

      def path_string(path)
        path.to_s
      end

      def exist?(path)
        ::File.exist?(path.to_s)
      end

      def file?(path)
        ::File.file?(path.to_s)
      end

      def directory?(path)
        ::File.directory?(path.to_s)
      end

      def dir_exist?(path)
        ::Dir.exist?(path.to_s)
      end

      def symlink?(path)
        ::File.symlink?(path.to_s)
      end

      def readlink(path)
        ::File.readlink(path.to_s)
      end

      def stat(path)
        ::File.stat(path.to_s)
      end

      def lstat(path)
        ::File.lstat(path.to_s)
      end

      def size(path)
        ::File.size(path.to_s)
      end

      def read(path, opts = {})
        ::File.read(path.to_s, **opts)
      end

      def read_preserve_line_endings(path)
        ::File.read(path.to_s, mode: 'rb:bom|utf-8')
      end

      def binread(path)
        ::File.binread(path.to_s)
      end

      def each_line(path, &block)
        ::File.foreach(path.to_s, &block)
      end

      # Puppet's order: the path, the permissions of a new file, the
      # mode (`'w'`, `'a'`, ...).
      def open(path, mode, options, &block)
        ::File.open(path.to_s, options, mode, &block)
      end

      def chmod(mode, path)
        ::File.chmod(mode, path.to_s)
      end

      def unlink(*paths)
        ::File.unlink(*paths.map(&:to_s))
      end

      def touch(path, mtime: nil)
        ::FileUtils.touch(path.to_s, mtime: mtime)
      end

      def mkpath(path)
        ::FileUtils.mkdir_p(path.to_s)
      end

      def dir_mkpath(path)
        mkpath(::File.dirname(path.to_s))
      end

      def dir_string(path)
        ::File.dirname(path.to_s)
      end

      def basename_string(path)
        ::File.basename(path.to_s)
      end

      def children(path)
        pathname(path).children
      end
    end
  end
end
