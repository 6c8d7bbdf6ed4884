define mrtestdefmod::thing () { }
