@user { 'mrtest-u1': shell => '/bin/bash' }
@user { 'mrtest-u2': shell => '/bin/sh' }
@user { 'mrtest-u3': }
User <| shell != '/bin/bash' |>
