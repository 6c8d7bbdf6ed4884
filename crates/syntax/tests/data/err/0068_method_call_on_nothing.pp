$a = .upcase
