[1].each()
