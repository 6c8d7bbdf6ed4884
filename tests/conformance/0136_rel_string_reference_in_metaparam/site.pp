notify { 'mrtest-str-target': }
notify { 'mrtest-str-source': before => 'Notify[mrtest-str-target]' }
