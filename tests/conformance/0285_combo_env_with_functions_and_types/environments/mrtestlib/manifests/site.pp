$ports = mrtestutil::ports('web')
class { 'mrtestutil::listener': ports => $ports }
