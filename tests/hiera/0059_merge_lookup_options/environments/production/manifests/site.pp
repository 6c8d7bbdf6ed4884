include mrtest
