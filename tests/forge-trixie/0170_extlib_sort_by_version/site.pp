# Picking the newest of several release versions with
# extlib::sort_by_version, and branching on which modules are installed
# with extlib::has_module.
$releases = extlib::sort_by_version(['1.10.0', '1.2.3', '1.9.12', '2.0.0-rc1', '1.2.10'])
$newest   = $releases[-1]

file { '/etc/mrtest-release':
  ensure  => file,
  content => "available=${join($releases, ',')}\nnewest=${newest}\n",
}

if extlib::has_module('puppetlabs/stdlib') {
  notify { 'mrtest-stdlib': message => 'puppetlabs-stdlib is installed' }
}
if extlib::has_module('puppet-nonexistent') {
  notify { 'mrtest-nonexistent': message => 'unexpected module' }
} else {
  notify { 'mrtest-no-module': message => 'puppet-nonexistent is not installed' }
}
