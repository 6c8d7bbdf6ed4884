notify { "mrtest-hiera-hash": message => String(hiera_hash("mrtest::scalar")) }
