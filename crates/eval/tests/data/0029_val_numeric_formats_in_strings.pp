$f = 2.50
notice("f=${f}")
notice("i=${0x10}")
notice("sum=${1.5 + 1}")
