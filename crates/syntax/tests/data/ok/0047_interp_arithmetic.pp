$x = 1
notice("next: ${$x + 1}")
