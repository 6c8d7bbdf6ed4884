type Mrtestcfg2::Settings = Struct[{ name => String[1], port => Integer[1, 65535] }]
