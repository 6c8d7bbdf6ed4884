define mrtest_cluster (Integer $members) {
  Integer[1, $members].each |$i| {
    mrtest_cluster::member { "${title}-${i}": cluster => $title }
  }
}
define mrtest_cluster::member (String $cluster) {
  @notify { "mrtest-member-${title}": tag => "mrtest_cluster_${cluster}" }
}
mrtest_cluster { 'red': members => 3 }
mrtest_cluster { 'blue': members => 2 }
Notify <| tag == 'mrtest_cluster_red' |>
