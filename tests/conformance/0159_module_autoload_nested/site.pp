include mrtestdeep::a::b
