include mrtesttags::server
