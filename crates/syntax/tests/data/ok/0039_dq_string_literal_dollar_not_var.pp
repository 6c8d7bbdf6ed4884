$a = "cost: $ 5 and $"
notice($a)
