if 'key=value' =~ /^(\w+)=(\w+)$/ {
  notice($0)
  notice($1)
  notice($2)
  notice("[${3}]")
}
