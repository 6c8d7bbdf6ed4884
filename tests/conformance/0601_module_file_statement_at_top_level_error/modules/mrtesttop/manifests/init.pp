# A module file that does more than define.
notify { "at the top": }

class mrtesttop {
  notify { "inside": }
}
