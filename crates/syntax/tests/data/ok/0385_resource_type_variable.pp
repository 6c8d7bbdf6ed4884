$type { $title: * => $attrs }
