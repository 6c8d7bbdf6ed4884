# In a node, $title and $name are the matched definition's name.
node 'mrtest.example.com', 'mrtest-other' {
  notify { "title=${title} name=${name}": }
}
