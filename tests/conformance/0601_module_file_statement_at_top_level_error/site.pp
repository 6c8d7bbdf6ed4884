include mrtesttop
