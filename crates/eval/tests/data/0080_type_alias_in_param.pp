type Small = Integer[0, 9]
function digit(Small $d) { "digit ${d}" }
notice(digit(7))
