# A defined type is a resource type even before its definition in the file;
# core types are too, classes are not.
notice(Later)
notice(Later['x'])
notice([Notify, Stage, Node, File['/tmp']])
define later {}
