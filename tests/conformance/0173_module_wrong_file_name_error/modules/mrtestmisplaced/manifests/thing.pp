class mrtestmisplaced::other {
}
