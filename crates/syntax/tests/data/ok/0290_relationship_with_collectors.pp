Package <| tag == 'x' |> -> File <| |>
Yumrepo <| |> -> Package <| |>
