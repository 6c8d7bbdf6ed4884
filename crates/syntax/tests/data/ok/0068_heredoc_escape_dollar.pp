$a = @("END"/$)
price: \$5
END
notice($a)
