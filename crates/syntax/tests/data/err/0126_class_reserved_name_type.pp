class type { }
