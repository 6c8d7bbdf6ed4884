# lookup's four-argument form: an undef type and merge still take their
# places, so the fourth argument is the default, for a module without
# hiera.yaml as for the environment's keys.
include mrmod
notify { 'module key':
  message => lookup('mrmod::missing', undef, undef, 'module default'),
}
notify { 'environment key':
  message => lookup('mrtest::nokey', undef, 'first', 'environment default'),
}
notify { 'found':
  message => lookup('mrtest::value', undef, undef, 'unused'),
}
