type Mrtesttypes::Port = Integer[1, 65535]
