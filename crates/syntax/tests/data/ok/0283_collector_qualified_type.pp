Mymod::Thing <| title == 'x' |>
