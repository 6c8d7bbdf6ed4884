mrtestsite::page { ['home', 'contact']: }
