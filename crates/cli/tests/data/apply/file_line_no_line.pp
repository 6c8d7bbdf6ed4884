# A line is required unless a match removes lines.
file_line { 'no_line': path => '/tmp/mrtest-apply/x', match => '^x' }
