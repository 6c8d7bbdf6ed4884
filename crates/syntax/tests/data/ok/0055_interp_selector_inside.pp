$os = 'Debian'
notice("${$os ? { 'Debian' => 'apt', default => 'yum' }}")
