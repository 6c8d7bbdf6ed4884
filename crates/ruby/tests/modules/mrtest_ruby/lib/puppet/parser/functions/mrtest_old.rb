module Puppet::Parser::Functions
  newfunction(:mrtest_old, :type => :rvalue, :arity => -2, :doc => 'A 3.x function.') do |args|
    first = args[0]
    "#{first.inspect} #{args[1..].inspect} #{lookupvar('greeting')} #{function_upcase([first.to_s])}"
  end
end
