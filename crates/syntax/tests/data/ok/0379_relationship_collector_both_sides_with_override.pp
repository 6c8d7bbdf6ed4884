Package <| |> -> File <| tag == 'cfg' |> { mode => '0640' }
