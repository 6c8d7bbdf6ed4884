node web-01 { }
