# A module type's own title patterns give its resources attributes from
# their titles, which the catalog shows (but a namevar that is the title,
# and what is given).
mrtest_split { 'a b': }
mrtest_split { 'single': }
mrtest_split { 'c d': other => 'given' }
mrtest_pair { 'Web::port': value => '80' }
mrtest_pair { 'alone': value => '1' }
mrtest_pair { 'x::y': name => 'n', value => '2' }
