@notify { 'mrtest-nm': message => 'a' }
Notify <| message == 'b' |>
notify { 'mrtest-visible': }
