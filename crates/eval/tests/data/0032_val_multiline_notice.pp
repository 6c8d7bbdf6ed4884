notice("first\nsecond\nthird")
notice("after")
