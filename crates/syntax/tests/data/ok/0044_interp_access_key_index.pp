$var = { 'key' => [10, 20] }
notice("v: ${var['key'][0]}")
