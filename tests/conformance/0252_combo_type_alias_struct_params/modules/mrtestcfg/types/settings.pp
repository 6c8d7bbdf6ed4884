type Mrtestcfg::Settings = Struct[{
  name           => String[1],
  port           => Integer[1, 65535],
  Optional[tls]  => Boolean,
}]
