notify { 'mrtest-chain-lonely': }
Notify['mrtest-chain-lonely'] -> Service['mrtest-absent-svc']
