class mrtest_mode_user (Mrtesttypes2::Mode $mode) { }
class { 'mrtest_mode_user': mode => '644' }
