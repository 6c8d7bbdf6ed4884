notify { 'mrtest-top-before-node': }
node default {
  notify { 'mrtest-in-node': }
}
$mrtest_topvar = 'x'
notify { 'mrtest-top-after-node': }
