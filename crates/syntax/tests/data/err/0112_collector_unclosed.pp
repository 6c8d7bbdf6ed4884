File <| tag == 'x'
