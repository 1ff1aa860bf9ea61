package marketplace

// orgCatalog is what the validator and the compiler need from one set of
// installations, built once per set.
type orgCatalog struct{}
