class foo (*$rest) { }
