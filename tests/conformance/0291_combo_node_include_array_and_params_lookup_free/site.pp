node 'mrtest.example.com' {
  $classes = ['profile::one', 'profile::two']
  include $classes
  class { 'profile::three': level => 3 }
}
class profile::one { notify { 'mrtest-p1': } }
class profile::two { notify { 'mrtest-p2': before => Notify['mrtest-p1'] } }
class profile::three (Integer $level) { notify { 'mrtest-p3': message => $level } }
