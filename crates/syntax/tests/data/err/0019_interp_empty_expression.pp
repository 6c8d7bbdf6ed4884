notice("${}")
