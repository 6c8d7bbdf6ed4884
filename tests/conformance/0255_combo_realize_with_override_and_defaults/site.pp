User { managehome => true }
class mrtest_people {
  @user { 'mrtest-ops1': uid => 7101, tag => 'mrtest_ops' }
  @user { 'mrtest-ops2': uid => 7102, tag => 'mrtest_ops' }
  @user { 'mrtest-dev1': uid => 7103, tag => 'mrtest_dev' }
}
include mrtest_people
User <| tag == 'mrtest_ops' |> { groups => ['mrtest-sudo'], shell => '/bin/zsh' }
