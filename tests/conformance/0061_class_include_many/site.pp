class mrtest_a { notify { 'mrtest-a': } }
class mrtest_b { notify { 'mrtest-b': } }
class mrtest_c { notify { 'mrtest-c': } }
class mrtest_d { notify { 'mrtest-d': } }
include mrtest_a
include mrtest_a
include mrtest_b, mrtest_c
include(['mrtest_d', 'mrtest_a'])
