include mrtestpg
mrtestpg::db { 'mrtest_inventory': owner => 'mrtest-inv' }
mrtestpg::db { 'mrtest_metrics': }
