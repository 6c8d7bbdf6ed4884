File { '/tmp/a': mode => '0644' }
