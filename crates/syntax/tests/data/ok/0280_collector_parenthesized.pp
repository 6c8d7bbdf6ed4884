Package <| (tag == 'a' or tag == 'b') and ensure == 'present' |>
