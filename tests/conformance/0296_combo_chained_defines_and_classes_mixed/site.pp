class mrtest_pre { notify { 'mrtest-pre': } }
define mrtest_step () { notify { "mrtest-step-${title}": } }
class mrtest_post { notify { 'mrtest-post': } }
include mrtest_pre, mrtest_post
mrtest_step { ['one', 'two']: }
Class['mrtest_pre'] -> Mrtest_step['one'] -> Mrtest_step['two'] -> Class['mrtest_post']
