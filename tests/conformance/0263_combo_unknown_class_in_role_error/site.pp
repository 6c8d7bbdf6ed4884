include role::broken
