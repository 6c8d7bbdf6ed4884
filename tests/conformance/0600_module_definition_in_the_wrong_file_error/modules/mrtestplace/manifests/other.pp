class mrtestplace::other {
  notify { "other": }
}

define mrtestplace::thing ($size = 1) {
  notify { "thing ${title}": }
}
