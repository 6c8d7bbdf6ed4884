# A chain through a collector that collects nothing still orders what
# stands either side of it, as OpenStack modules' deps.pp rely on; a
# collector that collects something takes the arrows itself.
notify { 'a': } -> Package<| tag == 'nothing' |> ~> notify { 'b': }
notify { 'c': } -> Package<| tag == 'nothing' |> -> Service<| tag == 'none' |> ~> notify { 'd': }
notify { 'e': } -> File<| tag == 'x' |> -> notify { 'f': }
file { '/tmp/mrtest-n': tag => 'x' }
# Two empty collectors between the same pair give the edge twice.
notify { 'g': } -> Package<| tag == 'none' |> ~> notify { 'h': }
Notify['g'] -> Service<| tag == 'none' |> ~> Notify['h']
