notify { 'mrtest-bare': }
file { '/tmp/mrtest-bare': }
