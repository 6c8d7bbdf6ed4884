include mrtestntp
