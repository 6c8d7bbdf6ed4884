create_resources('@class', { 'foo' => {} })
