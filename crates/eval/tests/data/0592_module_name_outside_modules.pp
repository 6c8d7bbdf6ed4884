# Outside modules the module name is empty, and the caller's module of what
# site.pp declares is that empty name.
define d($x = $caller_module_name) { notice(type($x)) }
d { 'a': }
notice(type($module_name))
package { 'mrtest-self-alias': ensure => absent, alias => 'mrtest-self-alias' }
