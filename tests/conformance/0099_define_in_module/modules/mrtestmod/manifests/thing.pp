define mrtestmod::thing (Integer $size = 1) {
  notify { "mrtestmod-thing-${title}":
    message => "size ${size} in ${module_name}",
  }
}
