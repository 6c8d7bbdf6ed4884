# Class['a', 'b'] names several classes at once, as File['a', 'b'] names
# several files (theforeman-puppet's agent class chains them).
class mrtest_a { notify { 'a': } }
class mrtest_b { notify { 'b': } }
class mrtest_c { notify { 'c': } }
include mrtest_a, mrtest_b, mrtest_c
Class['mrtest_a'] ~> Class['mrtest_b', 'mrtest_c']
notify { 'refs': message => String(Class['mrtest_b', 'mrtest_c']) }
