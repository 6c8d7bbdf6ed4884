mytype { 'a':
  and      => 1,
  or       => 2,
  in       => 3,
  if       => 4,
  else     => 5,
  elsif    => 6,
  case     => 7,
  default  => 8,
  undef    => 9,
}
