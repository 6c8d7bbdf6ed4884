# The application, configured by the appconf module.
class profile::app (
  Integer $port,
) {
  appconf::setting { 'port':
    value => $port,
  }
  appconf::setting { 'log_level':
    value => profile::log_level_for($port),
  }
}
