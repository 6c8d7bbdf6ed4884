define type { }
