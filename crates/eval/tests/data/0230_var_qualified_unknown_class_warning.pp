notice($nosuch::var)
