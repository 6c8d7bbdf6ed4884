# create_resources: a type name in any case or @-prefixed, defaults under the parameters, classes, and array titles.
define show($message = 'none', $extra = 'e') { notice("${title}: ${message} ${extra}") }
$h = { 'a' => { 'message' => 'one' }, 'b' => {} }
create_resources('show', $h)
create_resources(show, { 'c' => { message => 'three' } }, { 'extra' => 'default extra', 'message' => 'dm' })
create_resources('Show', { 'd' => { } })
create_resources('class', { 'foo' => { 'p' => 'x' } })
class foo($p) { notice("foo ${p}") }
create_resources('@show', { 'virtual' => {} })
realize(Show['virtual'])
create_resources('@@show', { 'exported' => {} })
notice(create_resources('show', {}))
notice(create_resources('show', { 'ret' => {} }))
create_resources('show', { ['t1', 't2'] => { message => 'array title' } })
$sub = { 'u' => { message => undef } }
create_resources('show', $sub, { message => 'undef keeps the default' })
