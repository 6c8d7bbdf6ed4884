case [1, 2] {
  [1, 2]: { notice('pair') }
  { 'a' => 1 }: { notice('hash') }
  default: {}
}
