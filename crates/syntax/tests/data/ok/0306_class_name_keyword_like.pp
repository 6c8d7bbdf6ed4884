class plan { }
class site { }
class application::foo { }
