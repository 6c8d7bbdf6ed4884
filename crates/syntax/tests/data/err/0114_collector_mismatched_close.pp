File <| tag == 'x' |>>
