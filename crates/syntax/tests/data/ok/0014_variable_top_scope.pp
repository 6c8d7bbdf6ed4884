notice($::osfamily)
notice($::x)
