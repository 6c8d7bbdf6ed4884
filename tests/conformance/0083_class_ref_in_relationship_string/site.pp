class mrtest_first { notify { 'mrtest-f': } }
class mrtest_second { notify { 'mrtest-s': } }
include mrtest_first, mrtest_second
Class['mrtest_first'] -> Class['mrtest_second']
