include role::dbserver
