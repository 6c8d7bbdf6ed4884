class mrtestcaller {
  mrtestcallee::report { 'from-caller': }
}
