$a = "caf\u00e9 \u0041\u0042"
notice($a)
