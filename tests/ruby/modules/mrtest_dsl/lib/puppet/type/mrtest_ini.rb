# A key of a section of an INI file, kept through Puppet's INI model
# (Puppet::Util::IniConfig), as yumrepo_core's and zypprepo's providers
# keep theirs: `Mrtest_ini['SECTION/KEY']`.
Puppet::Type.newtype(:mrtest_ini) do
  @doc = 'A key of an INI file section.'

  ensurable

  newparam(:name, namevar: true) do
    desc 'SECTION/KEY.'
  end

  newparam(:path) do
    desc 'The INI file.'
  end

  newproperty(:value) do
    desc "The key's value."
  end
end
