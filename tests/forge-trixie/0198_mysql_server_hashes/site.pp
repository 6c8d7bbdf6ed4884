# Users, grants and databases given to mysql::server as hashes (the shape
# they take in Hiera), with a root login file rather than a .my.cnf.
class { 'mysql::server':
  root_password      => 'mrtest-root-pw',
  create_root_my_cnf => true,
  databases          => {
    'mrtest_wiki' => {
      'ensure'  => 'present',
      'charset' => 'utf8mb4',
    },
  },
  users              => {
    'mrtest_wiki@localhost' => {
      'ensure'        => 'present',
      'password_hash' => '*F3A2A51A9B0F2BE2468926B4132313728C250DBF',
    },
  },
  grants             => {
    'mrtest_wiki@localhost/mrtest_wiki.*' => {
      'ensure'     => 'present',
      'options'    => ['GRANT'],
      'privileges' => ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'CREATE', 'ALTER', 'INDEX'],
      'table'      => 'mrtest_wiki.*',
      'user'       => 'mrtest_wiki@localhost',
    },
  },
}
