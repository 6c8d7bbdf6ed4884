File { mode => }
