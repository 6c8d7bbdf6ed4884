# A relative path is refused before anything is applied.
ini_setting { 'relative': path => 'x.ini', section => 's', setting => 'k', value => 'v' }
