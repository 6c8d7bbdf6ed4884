notice([1, 2].reduce)
