# A 3.x function: arguments as 3.x functions get them, the scope's
# variables, and another function called the 3.x way.
module Puppet::Parser::Functions
  newfunction(:mrtest_legacy, type: :rvalue, arity: -2, doc: 'Describes its arguments.') do |args|
    shown = args.map { |a| a.nil? ? 'nil' : "#{a.class}(#{a})" }.join(', ')
    "#{shown} in #{lookupvar('mrtest_where')} #{function_upcase(['x'])}"
  end
end
