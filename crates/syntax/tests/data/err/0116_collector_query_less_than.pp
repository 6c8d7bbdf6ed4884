File <| size < 3 |>
