notice([1, 2, 3, 2] - [2])
notice([1, 2, 3] - 3)
notice([a, b] - [c])
notice([[1], 2] - [[1]])
