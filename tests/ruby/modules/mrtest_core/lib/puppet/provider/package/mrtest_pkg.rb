# A package provider on Puppet's base class for them, as the
# provider-development page's dpkg is: installed packages are files of
# /tmp/mrtest-rbtypes/pkgdb holding their version, and the newest
# version available is 2.0.
require 'fileutils'
require 'puppet/provider/package'

Puppet::Type.type(:package).provide :mrtest_pkg, parent: Puppet::Provider::Package do
  desc 'Packages kept as files under /tmp/mrtest-rbtypes/pkgdb.'

  has_feature :versionable, :upgradeable, :purgeable
  confine feature: :mrtest_pkgdb

  def self.db
    '/tmp/mrtest-rbtypes/pkgdb'
  end

  def self.instances
    Dir.glob("#{db}/*").sort.map do |file|
      new(name: File.basename(file), ensure: File.read(file).strip, provider: :mrtest_pkg)
    end
  end

  def query
    file = File.join(self.class.db, resource[:name])
    File.exist?(file) ? { name: resource[:name], ensure: File.read(file).strip } : nil
  end

  def install(version = nil)
    wanted = resource[:ensure].to_s
    version ||= wanted.match?(/\A\d/) ? wanted : '1.0'
    FileUtils.mkdir_p(self.class.db)
    File.write(File.join(self.class.db, resource[:name]), "#{version}\n")
  end

  def latest
    '2.0'
  end

  def update
    install(latest)
  end

  def uninstall
    File.delete(File.join(self.class.db, resource[:name]))
  end

  def purge
    uninstall if File.exist?(File.join(self.class.db, resource[:name]))
  end
end
