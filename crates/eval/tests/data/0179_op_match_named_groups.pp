if '2024-05' =~ /(?<y>\d+)-(?<m>\d+)/ {
  notice($1)
  notice($2)
}
