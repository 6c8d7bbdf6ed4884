define foo ($name) { }
