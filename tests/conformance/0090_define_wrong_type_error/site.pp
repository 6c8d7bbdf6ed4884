define mrtest_port (Integer[1, 65535] $port) { }
mrtest_port { 'mrtest-web': port => 70000 }
