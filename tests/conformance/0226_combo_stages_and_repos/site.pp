stage { 'mrtest_setup': before => Stage['main'] }
node default {
  class { 'mrtestrepo': stage => 'mrtest_setup' }
  include mrtestpkgs
}
