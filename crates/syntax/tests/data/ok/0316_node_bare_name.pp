node web01 { }
