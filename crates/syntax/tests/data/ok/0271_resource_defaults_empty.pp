Exec { }
