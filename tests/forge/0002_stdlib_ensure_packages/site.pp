# Packages declared from several places without duplicate declarations.
ensure_packages(['git', 'curl'])
ensure_packages({'vim' => { 'ensure' => 'latest' }})
ensure_resource('user', 'deploy', { 'ensure' => 'present', 'shell' => '/bin/bash' })
ensure_resource('file', ['/srv/app', '/srv/app/shared'], { 'ensure' => 'directory', 'owner' => 'deploy' })
