class mrtest_rbase { notify { 'mrtest-rbase': } }
class mrtest_rchild (String $msg = 'child') inherits mrtest_rbase {
  notify { 'mrtest-rchild': message => $msg }
}
class { 'mrtest_rchild': msg => 'given' }
