class mrtestbadtype {
  mrtestbadtype::missing { 'x': }
}
