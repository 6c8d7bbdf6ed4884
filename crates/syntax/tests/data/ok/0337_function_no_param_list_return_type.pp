function foo >> Integer { 1 }
