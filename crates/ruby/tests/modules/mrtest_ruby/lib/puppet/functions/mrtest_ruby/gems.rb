# What module code uses of RubyGems, which Puppet's Ruby always has
# loaded: versions compared, a requirement checked, then the rest of it.
# Each answer says whether RubyGems was loaded whole at that point.
Puppet::Functions.create_function(:'mrtest_ruby::gems') do
  def gems
    whole = -> { $LOADED_FEATURES.any? { |file| file.end_with?('/rubygems.rb') } }
    newer = Gem::Version.new('2.10.0') > Gem::Version.new('2.9.1')
    satisfied = Gem::Requirement.new('>= 1.2', '< 2').satisfied_by?(Gem::Version.new('1.10'))
    light = [newer, satisfied, whole.call]
    [light, [Gem::Specification.is_a?(Class), Gem.respond_to?(:loaded_specs), whole.call]]
  end
end
