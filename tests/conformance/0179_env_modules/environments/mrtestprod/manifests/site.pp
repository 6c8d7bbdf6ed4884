node default {
  include mrtestenvmod
}
