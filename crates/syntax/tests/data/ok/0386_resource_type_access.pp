Resource[$t] { 'b': message => 'x' }
Resource['file'] { '/tmp/x': ensure => file; '/tmp/y': }
File['/tmp/x'] { mode => '0644' }
