class mrtest_tagged_cls {
  tag 'mrtest_fn_tag', 'mrtest_second'
  notify { 'mrtest-tagfn': }
}
include mrtest_tagged_cls
notify { 'mrtest-top-untagged': }
