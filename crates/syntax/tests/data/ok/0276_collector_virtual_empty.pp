User <| |>
