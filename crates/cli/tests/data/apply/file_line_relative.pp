# A relative path is refused before anything is applied.
file_line { 'relative': path => 'etc/hosts', line => 'x' }
