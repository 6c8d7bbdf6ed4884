class mrtest_vgroups {
  @group { 'mrtest-docker': gid => 5500 }
  @group { 'mrtest-libvirt': gid => 5501 }
}
define mrtest_member (Array[String] $groups) {
  include mrtest_vgroups
  $groups.each |$g| { realize(Group[$g]) }
  user { $title: groups => $groups, require => $groups.map |$g| { Group[$g] } }
}
mrtest_member { 'mrtest-ivy': groups => ['mrtest-docker'] }
