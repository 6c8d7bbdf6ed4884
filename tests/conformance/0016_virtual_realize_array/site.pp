@group { 'mrtest-ops': gid => 5001 }
@group { 'mrtest-dev': gid => 5002 }
@group { 'mrtest-qa': gid => 5003 }
@user { 'mrtest-dana': gid => 5001 }
realize([Group['mrtest-ops'], Group['mrtest-dev']], User['mrtest-dana'])
realize(Group['mrtest-ops'])
