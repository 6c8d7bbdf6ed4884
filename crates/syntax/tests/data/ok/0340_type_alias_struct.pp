type Mymod::Conf = Struct[{
  name           => String[1],
  Optional[port] => Mymod::Port,
}]
