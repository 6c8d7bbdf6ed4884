mrtestmod::thing { 'widget': size => 3 }
