class mrtest::web::vhost { notify { 'mrtest-vhost': } }
class mrtest::web { include mrtest::web::vhost }
include mrtest::web
notify { 'mrtest-refs':
  require => [Class['mrtest::web'], Class['Mrtest::Web::Vhost'], Class[mrtest::web::vhost]],
}
