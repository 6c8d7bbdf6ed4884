class mrtestaccounts {
  $people = {
    'mrtest-ann' => { 'uid' => 6001, 'team' => 'ops' },
    'mrtest-bo'  => { 'uid' => 6002, 'team' => 'dev' },
    'mrtest-cy'  => { 'uid' => 6003, 'team' => 'ops' },
  }
  $people.each |$login, $info| {
    @mrtestaccounts::person { $login:
      uid  => $info['uid'],
      team => $info['team'],
      tag  => "mrtest_team_${info['team']}",
    }
  }
}
