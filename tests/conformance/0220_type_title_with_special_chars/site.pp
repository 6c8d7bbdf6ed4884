notify { 'mrtest with spaces and "quotes"': }
notify { "mrtest-unicode-\u00e9": }
notify { 'mrtest[brackets]': }
