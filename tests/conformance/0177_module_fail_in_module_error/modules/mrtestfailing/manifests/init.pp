class mrtestfailing (String $flavour) {
  unless $flavour in ['good', 'better'] {
    fail("mrtestfailing: unsupported flavour ${flavour}")
  }
}
