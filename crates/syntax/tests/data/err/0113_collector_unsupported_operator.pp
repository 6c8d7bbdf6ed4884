File <| tag =~ 'x' |>
