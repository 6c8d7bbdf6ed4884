$x = `ls`
