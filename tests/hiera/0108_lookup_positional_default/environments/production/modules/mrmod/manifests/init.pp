class mrmod { }
