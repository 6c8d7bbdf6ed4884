notice('apple' < 'banana')
notice('Zebra' > 'apple')
notice('10' < '9')
notice(10 < 9)
