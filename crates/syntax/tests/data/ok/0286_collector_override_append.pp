File <| tag == 'x' |> { require +> Package['y'] }
