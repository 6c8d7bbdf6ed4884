include mrtestplace::other
