class mrtest::naming {
  notify { 'mrtest-naming':
    message => "name=${name} title=${title} module=${module_name}",
  }
}
include mrtest::naming
