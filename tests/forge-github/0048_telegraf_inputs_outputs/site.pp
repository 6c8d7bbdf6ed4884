# The telegraf agent (telegraf) from InfluxData's repository, with an
# InfluxDB output, global tags and inputs given to the class.
class { 'telegraf':
  hostname    => 'mrtest.example.com',
  interval    => '30s',
  global_tags => { 'dc' => 'example-1', 'role' => 'web' },
  outputs     => {
    'influxdb' => [
      { 'urls' => ['http://influxdb.example.com:8086'], 'database' => 'telegraf' },
    ],
  },
  inputs      => {
    'cpu'  => [{ 'percpu' => true, 'totalcpu' => true }],
    'disk' => [{ 'ignore_fs' => ['tmpfs', 'devtmpfs'] }],
    'mem'  => [{}],
  },
}
