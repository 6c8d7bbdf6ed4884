# locales with a LANGUAGE list and per-category LC_* overrides.
class { 'locales':
  locales        => ['en_US.UTF-8 UTF-8', 'de_DE.UTF-8 UTF-8'],
  default_locale => 'en_US.UTF-8',
  language       => 'en_US:en',
  lc_time        => 'de_DE.UTF-8',
  lc_paper       => 'de_DE.UTF-8',
  lc_measurement => 'de_DE.UTF-8',
}
