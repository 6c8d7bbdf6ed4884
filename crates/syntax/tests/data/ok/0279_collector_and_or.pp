User <| groups == 'admin' and shell != '/bin/false' or title == 'root' |>
