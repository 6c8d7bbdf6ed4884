class mrtest_net { notify { 'mrtest-net': } }
class mrtest_dns { notify { 'mrtest-dns': } }
class mrtest_ntp2 { notify { 'mrtest-ntp2': } }
class mrtest_apps { notify { 'mrtest-apps': } }
include mrtest_net, mrtest_dns, mrtest_ntp2, mrtest_apps
Class['mrtest_net'] -> [Class['mrtest_dns'], Class['mrtest_ntp2']] -> Class['mrtest_apps']
