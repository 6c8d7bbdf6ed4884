[1].each |$x| # c
{
  notice($x)
}
