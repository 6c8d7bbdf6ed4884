# A template that changes an array in place changes the variable and the
# parameter holding it; a hash a template sets is the same object for the
# templates it includes.
mrtest_rb::holder { 'h': list => ['given'] }
