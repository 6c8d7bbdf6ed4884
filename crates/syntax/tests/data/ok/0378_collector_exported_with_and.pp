Concat::Fragment <<| tag == 'a' and target == '/tmp/x' |>>
