# stdlib 9's merge chooses its signature by the block's arity: a block of
# one parameter fits none, and Puppet describes each signature's refusal,
# the block's first.
notify { 'mrtest-merge': message => String(stdlib::merge([1, 2]) |$x| { {} }) }
