# A volume its provider's command refuses: the failure names the command
# as it ran, an empty list among its arguments adding nothing.
mrtest_chime { 'gong':
  volume => '99',
}
