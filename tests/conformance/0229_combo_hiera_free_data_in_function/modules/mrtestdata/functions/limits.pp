function mrtestdata::limits(Integer $mem) >> Hash[String, Integer] {
  $mb = $mem / (1024 * 1024)
  $limits = {
    'nofile' => if $mb > 2048 { 65536 } else { 4096 },
    'nproc'  => $mb / 4,
  }
  $limits
}
