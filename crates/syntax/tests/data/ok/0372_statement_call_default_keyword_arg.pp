notice default
