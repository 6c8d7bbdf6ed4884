define mrtest_tagself (String $team) {
  tag "mrtest_team_${team}"
  notify { "mrtest-tagself-${title}": }
}
mrtest_tagself { 'svc1': team => 'blue' }
mrtest_tagself { 'svc2': team => 'green' }
Notify <| tag == 'mrtest_team_blue' |> { message => 'blue team' }
