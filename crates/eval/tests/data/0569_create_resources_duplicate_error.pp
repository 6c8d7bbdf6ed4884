create_resources('notify', { 'a' => {} })
create_resources('notify', { 'a' => {} })
