create_resources('class', { 'nosuch' => {} })
