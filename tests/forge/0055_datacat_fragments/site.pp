# A file rendered from data gathered from several declarations.
datacat { '/etc/nodes.yaml':
  template_body => "<%= @data.to_yaml %>",
}
datacat_fragment { 'foo host':
  target => '/etc/nodes.yaml',
  data   => { 'host' => ['foo.example.com'] },
}
datacat_fragment { 'bar host':
  target => '/etc/nodes.yaml',
  data   => { 'host' => ['bar.example.com'] },
}
