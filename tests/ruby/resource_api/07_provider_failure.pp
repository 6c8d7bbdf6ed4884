# A provider that raises fails its resource alone; its dependents are skipped.
mrtest_rakv { 'delta': value => 'forbidden' }
-> notify { 'after delta': }
mrtest_rakv { 'epsilon': value => 'e' }
