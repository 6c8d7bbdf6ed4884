File <| tag == 'x' |>
