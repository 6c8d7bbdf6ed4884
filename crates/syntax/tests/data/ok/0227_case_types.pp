case 5 {
  String: { notice('str') }
  Integer[0, 10], Float: { notice('num') }
  default: {}
}
