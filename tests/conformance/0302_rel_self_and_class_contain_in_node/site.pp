class mrtest_nodecls { notify { 'mrtest-nodecls': } }
node default {
  contain mrtest_nodecls
  notify { 'mrtest-in-node-after': require => Class['mrtest_nodecls'] }
}
