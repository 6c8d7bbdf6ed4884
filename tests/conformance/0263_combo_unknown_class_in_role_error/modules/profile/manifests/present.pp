class profile::present { }
