notify { "mrtest-lookup-options": message => String(lookup("lookup_options")) }
