notice("if else case class")
