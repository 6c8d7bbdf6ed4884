module Puppet::Parser::Functions
  newfunction(:mrtest_statement, arity: 1) do |args|
    Puppet.notice("mrtest_statement got #{args[0]}")
    'never seen'
  end
end
