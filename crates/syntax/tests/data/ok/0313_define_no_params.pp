define foo { }
