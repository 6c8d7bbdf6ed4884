node 'mrtest.example.com' {
  include mrtest_envcls
}
