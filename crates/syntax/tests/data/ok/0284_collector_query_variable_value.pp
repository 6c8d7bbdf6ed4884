$t = 'web'
File <| tag == $t |>
