// nothing here
// at all
