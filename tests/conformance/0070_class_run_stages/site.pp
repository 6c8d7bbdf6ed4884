stage { 'mrtest_pre': before => Stage['main'] }
stage { 'mrtest_post': }
Stage['main'] -> Stage['mrtest_post']
class mrtest_repos { notify { 'mrtest-repos': } }
class mrtest_cleanup { notify { 'mrtest-cleanup': } }
class mrtest_main { notify { 'mrtest-main': } }
class { 'mrtest_repos': stage => mrtest_pre }
class { 'mrtest_cleanup': stage => 'mrtest_post' }
include mrtest_main
