$a = @(END/u)
caf\u00e9 \u{1F600}
END
notice($a)
