class profile::limits {
  $limits = mrtestdata::limits($facts['memory']['system']['total_bytes'])
  $limits.each |$item, $value| {
    file { "/tmp/mrtest-limits.d/${item}.conf":
      ensure  => file,
      content => "${item} ${value}\n",
    }
  }
}
