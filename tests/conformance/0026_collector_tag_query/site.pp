@notify { 'mrtest-t1': tag => 'mrtest_web' }
@notify { 'mrtest-t2': tag => ['mrtest_db', 'mrtest_web'] }
@notify { 'mrtest-t3': tag => 'mrtest_db' }
Notify <| tag == 'mrtest_web' |>
