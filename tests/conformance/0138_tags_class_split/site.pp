class mrtest::profile::web {
  notify { 'mrtest-profile-web': }
}
include mrtest::profile::web
