notice("a1b22".scanf("%c%d%1s%*d") |$v| { $v.join("-") })
notice("ab-cd".scanf("%[a-z-]%s"))
notice("xyz".scanf("%2c%c"))
