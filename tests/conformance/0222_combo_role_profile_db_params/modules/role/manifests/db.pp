class role::db (Enum['small', 'large'] $size = 'small') {
  $mem = $size ? { 'small' => 256, 'large' => 2048 }
  class { 'profile::postgres': shared_buffers_mb => $mem }
  contain profile::postgres
}
