$found = find_file('mrtestfind/data.txt')
$missing = find_file('mrtestfind/absent.txt')
notify { 'mrtest-find':
  message => "found=${$found =~ String} missing=${$missing == undef} name=${$found =~ /mrtestfind\/files\/data\.txt$/}",
}
