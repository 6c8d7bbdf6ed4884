class mrtesttplerr {
  file { '/tmp/mrtest-tplerr': content => epp('mrtesttplerr/bad.epp', { 'count' => 'three' }) }
}
