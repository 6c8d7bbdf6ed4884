# A key the title pattern's lambda leaves that its values refuse.
mrtest_entry { 'main::Bad1': value => '1' }
