class foo (
  Variant[String, Array[String]] $names = [],
) { }
