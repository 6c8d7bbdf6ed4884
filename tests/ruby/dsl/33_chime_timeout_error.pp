# A volume whose command outlasts its provider's Timeout fails with
# "execution expired"; the chime after it is set as a user, through a
# command of its own, as if nothing had happened.
mrtest_chime { 'slow':
  volume => '85',
}
mrtest_chime { 'after':
  volume => '4',
  ringer => 'root',
}
