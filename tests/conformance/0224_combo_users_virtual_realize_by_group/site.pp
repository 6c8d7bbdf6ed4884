include mrtestaccounts
include mrtestaccounts::admins
