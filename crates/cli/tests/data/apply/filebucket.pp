# backup => NAME saves the old content in that filebucket's directory.
filebucket { 'mrtest': path => '/tmp/mrtest-apply-bucket' }
File { backup => 'mrtest' }
file { '/tmp/mrtest-apply/backed-up': content => "new content\n" }
file { '/tmp/mrtest-apply/removed': ensure => absent }
