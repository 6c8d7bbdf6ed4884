include mrtestmisplaced::thing
