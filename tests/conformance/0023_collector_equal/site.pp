@user { 'mrtest-u1': shell => '/bin/bash', uid => 4201 }
@user { 'mrtest-u2': shell => '/bin/sh', uid => 4202 }
@user { 'mrtest-u3': shell => '/bin/bash', uid => 4203 }
User <| shell == '/bin/bash' |>
