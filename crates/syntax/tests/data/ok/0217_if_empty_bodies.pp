if true {} elsif false {} else {}
