node default {
  $nodevar = 'from the node'
  notify { 'node': message => "title=${title} name=${name}" }
  include mrtest
  include mrtest::child
}
