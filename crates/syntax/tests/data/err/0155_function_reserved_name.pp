function if() { }
