create_resources('notify', { 'a' => 'notahash' })
