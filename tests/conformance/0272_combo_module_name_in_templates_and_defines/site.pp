include mrtestmn
