# The nodes classify nothing: the classes are for a console to list.
node default {
}
