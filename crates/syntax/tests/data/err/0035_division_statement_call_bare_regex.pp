notice /a/
