class mrtestcfg2 (Mrtestcfg2::Settings $settings) { }
