class mrtestsyntax {
  notify { 'mrtest-syntax': message => 'x'
}
