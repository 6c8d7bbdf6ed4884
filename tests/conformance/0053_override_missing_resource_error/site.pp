Notify['mrtest-nowhere'] { message => 'x' }
