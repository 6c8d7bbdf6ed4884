define foo ($title) { }
