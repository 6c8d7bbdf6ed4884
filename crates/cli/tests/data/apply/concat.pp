# The concat module's README uses: a file built from fragments in order,
# with the default header, fragments from content and from sources (the
# first that exists), a YAML and a JSON file merged from fragments, and
# anchors ordering a class between them.
concat { '/tmp/mrtest-apply/motd':
  owner => 'root',
  group => 'root',
  mode  => '0640',
  warn  => true,
}
concat::fragment { 'motd_footer':
  target  => '/tmp/mrtest-apply/motd',
  content => "footer\n",
  order   => '99',
}
concat::fragment { 'motd_body':
  target  => '/tmp/mrtest-apply/motd',
  source  => ['/tmp/mrtest-apply/missing', '/tmp/mrtest-apply/src/a.conf'],
  order   => '10',
}
concat::fragment { 'motd_intro':
  target  => '/tmp/mrtest-apply/motd',
  content => 'intro',
  order   => 2,
}

concat { 'numbered':
  path           => '/tmp/mrtest-apply/numbered',
  order          => 'numeric',
  ensure_newline => true,
  warn           => "# numbered\n",
}
concat::fragment { 'n100': target => 'numbered', content => 'hundred', order => '100' }
concat::fragment { 'n9': target => 'numbered', content => 'nine', order => '9' }
concat::fragment { 'n10': target => 'numbered', content => 'ten', order => '10' }

concat { '/tmp/mrtest-apply/settings.yaml': format => 'yaml' }
concat::fragment { 'y1': target => '/tmp/mrtest-apply/settings.yaml', content => "a: 1\nlist: [x]\n" }
concat::fragment { 'y2': target => '/tmp/mrtest-apply/settings.yaml', content => "b: two\nlist: [y, x]\n", order => '20' }

concat { '/tmp/mrtest-apply/settings.json': format => 'json-pretty' }
concat::fragment { 'j1': target => '/tmp/mrtest-apply/settings.json', content => '{"name": "web", "ports": [80]}' }
concat::fragment { 'j2': target => '/tmp/mrtest-apply/settings.json', content => '{"ports": [443], "tls": {"on": true}}', order => '11' }

concat { '/tmp/mrtest-apply/list.json': format => 'json-array' }
concat::fragment { 'l1': target => '/tmp/mrtest-apply/list.json', content => '{"a": 1}' }
concat::fragment { 'l2': target => '/tmp/mrtest-apply/list.json', content => '[2, 3]', order => '05' }

class mrtest_inner {
  notify { 'inside': }
}
anchor { 'mrtest::begin': }
-> class { 'mrtest_inner': }
-> anchor { 'mrtest::end': }
~> exec { 'mrtest-after-anchor':
  command     => '/bin/true',
  refreshonly => true,
}
notify { 'before-everything': before => Anchor['mrtest::begin'] }
