class mrtest_envcls { notify { 'mrtest-envcls': } }
