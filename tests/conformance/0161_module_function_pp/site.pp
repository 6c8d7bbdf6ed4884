notify { 'mrtest-fn': message => mrtestfns::greet('world') }
notify { 'mrtest-fn2': message => String(mrtestfns::double(21)) }
