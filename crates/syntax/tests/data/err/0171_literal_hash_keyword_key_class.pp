$h = { class => 1 }
