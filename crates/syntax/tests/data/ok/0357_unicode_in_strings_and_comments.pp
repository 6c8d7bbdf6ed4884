# Grüße ☃
$a = 'naïve ☃'
notice("$a ✓")
