# A recursive copy with links => follow copies linked files as files and
# descends into linked directories; the same tree copied with links =>
# manage keeps the links (see sourceselect.pp).
file { '/tmp/mrtest-apply/tree-copy':
  source  => '/tmp/mrtest-apply/tree',
  recurse => true,
  links   => follow,
}
