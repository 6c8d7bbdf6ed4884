define foo inherits bar { }
