Package <| ensure == installed |>
