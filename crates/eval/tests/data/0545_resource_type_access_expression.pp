# `Resource[...]` before titled bodies names the type of a resource statement.
define show($message = $title) { notice("${title}: ${message}") }
$t = 'show'
Resource[$t] { 'b': message => 'x' }
Resource['show'] { 'c': }
Resource[Show] { 'd': }
Resource["sh${'ow'}"] { 'e': ; 'f': message => 'two bodies' }
Resource['class'] { 'foo': }
class foo { notice('class declared through Resource[class]') }
