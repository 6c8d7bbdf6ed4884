# Generated locales and the system default language (locales).
class { 'locales':
  locales        => ['en_US.UTF-8 UTF-8', 'en_GB.UTF-8 UTF-8', 'fr_FR.UTF-8 UTF-8'],
  default_locale => 'en_GB.UTF-8',
}
