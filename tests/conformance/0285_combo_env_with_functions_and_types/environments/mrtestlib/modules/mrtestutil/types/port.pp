type Mrtestutil::Port = Integer[1, 65535]
