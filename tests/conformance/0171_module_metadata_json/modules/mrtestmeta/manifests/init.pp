class mrtestmeta {
  notify { 'mrtest-meta-module': }
}
