File <| |> { mode => '0600' }
