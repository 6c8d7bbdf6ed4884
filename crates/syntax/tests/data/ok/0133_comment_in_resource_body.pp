file { '/tmp/a': # title comment
  # a whole line
  ensure /* here */ => file, # after value
  mode   => '0644' /* before comma */ ,
}
