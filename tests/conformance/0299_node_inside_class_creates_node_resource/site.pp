class mrtest_holds_node {
  node 'mrtest.example.com' {
    notify { 'mrtest-never': }
  }
}
include mrtest_holds_node
