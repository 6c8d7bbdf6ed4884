mrtest_gadget { 'x': }
