class mrtestutil::listener (Array[Mrtestutil::Port] $ports) {
  $ports.each |$p| {
    notify { "mrtest-listen-${p}": }
  }
}
