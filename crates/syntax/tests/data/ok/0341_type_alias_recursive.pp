type Mymod::Tree = Array[Variant[Integer, Mymod::Tree]]
