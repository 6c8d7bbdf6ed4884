require 'puppet/util/inifile'

Puppet::Type.type(:mrtest_ini).provide(:ruby) do
  desc 'Reads and writes the file with Puppet::Util::IniConfig.'

  def ini
    @ini ||= Puppet::Util::IniConfig::File.new.tap do |files|
      files.read(resource[:path]) if File.exist?(resource[:path])
    end
  end

  def section_name
    resource[:name].split('/').first
  end

  def key
    resource[:name].split('/').last
  end

  def exists?
    section = ini[section_name]
    !section.nil? && !section[key].nil?
  end

  def create
    section = ini[section_name] || ini.add_section(section_name, resource[:path])
    section[key] = resource[:value]
    ini.store
  end

  def destroy
    ini[section_name][key] = nil
    ini.store
  end

  def value
    ini[section_name][key]
  end

  def value=(value)
    ini[section_name][key] = value
    ini.store
  end
end
